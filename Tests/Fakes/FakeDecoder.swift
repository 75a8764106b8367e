public import Foundation
public import Pinhole
import PinholeShared

/// The test suites' one fake decoder, for ``FakeImage`` bodies: a 400×300 source, shrunk to the box, every
/// pixel the source URL's ``FakeImage/colour(for:)`` (so tests can tell images apart). Counts its decodes.
/// Thread-safe.
public final class FakeDecoder: ImageDecoding {
    private let count = Locked(0)
    private let cancelledCount = Locked(0)
    /// The gate every decode passes before it decodes (`nil`: none).
    public let gate: TestGate?

    /// A decoder that has decoded nothing yet; with a `gate`, every decode waits at it first (a closed gate
    /// that is never opened makes decodes that end only when cancelled).
    public init(gate: TestGate? = nil) { self.gate = gate }

    /// Decodes started so far.
    public var decodeCount: Int { count.withLock { $0 } }
    /// Decodes that were cancelled while they waited at ``gate``.
    public var cancelledDecodes: Int { cancelledCount.withLock { $0 } }

    /// Decodes a ``FakeImage`` body.
    ///
    /// - Throws: `CancellationError` when cancelled at the ``gate``; ``PinholeError/Code/decodingFailed`` when
    ///   `data` does not start with ``FakeImage/signature``.
    public func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        count.withLock { $0 += 1 }
        do {
            try await gate?.pass()
        } catch {
            cancelledCount.withLock { $0 += 1 }
            throw error
        }
        guard data.starts(with: FakeImage.signature) else {
            throw PinholeError(.decodingFailed, "not a fake image")
        }
        return FakeImage.decoded(source: FakeImage.source(of: data), thumbnail: options.thumbnail)
    }
}
