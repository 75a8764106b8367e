public import Foundation
public import Pinhole
import PinholeShared

/// The test suites' one fake decoder, for ``FakeImage`` bodies: a 400×300 source, shrunk to the box, every
/// pixel the source URL's ``FakeImage/colour(for:)`` (so tests can tell images apart). Counts its decodes.
/// Thread-safe.
public final class FakeDecoder: ImageDecoding {
    private let count = Locked(0)

    /// A decoder that has decoded nothing yet.
    public init() {}

    /// Decodes started so far.
    public var decodeCount: Int { count.withLock { $0 } }

    /// Decodes a ``FakeImage`` body.
    ///
    /// - Throws: ``PinholeError/Code/decodingFailed`` when `data` does not start with ``FakeImage/signature``.
    public func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        count.withLock { $0 += 1 }
        guard data.starts(with: FakeImage.signature) else {
            throw PinholeError(.decodingFailed, "not a fake image")
        }
        return FakeImage.decoded(source: FakeImage.source(of: data), thumbnail: options.thumbnail)
    }
}
