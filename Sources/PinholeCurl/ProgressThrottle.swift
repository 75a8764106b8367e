import Foundation
import Pinhole

/// When to call a request's ``DataRequest/onProgress`` and ``DataRequest/onPartialData`` while a body arrives:
/// progress at most every 64 KiB or 50 ms, partial data at most every 64 KiB, and progress once more at the end.
///
/// Used on the loader's thread only; the callbacks are called there, with no lock held.
struct ProgressThrottle {
    /// Bytes between two calls (of either callback) at most: 64 KiB.
    static let byteStep = 65_536
    /// Time between two progress calls at most: 50 ms.
    static let interval = Duration.milliseconds(50)

    private var expected: Int?
    private var reportedBytes = 0
    private var reportedAt: ContinuousClock.Instant?
    private var partialBytes = 0

    /// A final head arrived: its body starts now, `expected` bytes long when known.
    mutating func start(expected: Int?) {
        self = ProgressThrottle()
        self.expected = expected
    }

    /// `body` is everything received so far.
    mutating func received(
        _ body: Data, onProgress: (@Sendable (Int, Int?) -> Void)?, onPartialData: (@Sendable (Data) -> Void)?
    ) {
        let count = body.count
        if let onProgress {
            let now = ContinuousClock.now
            if count - reportedBytes >= Self.byteStep || reportedAt.map({ now - $0 >= Self.interval }) ?? true {
                reportedBytes = count
                reportedAt = now
                onProgress(count, expected)
            }
        }
        if let onPartialData, count - partialBytes >= Self.byteStep {
            partialBytes = count
            onPartialData(body)
        }
    }

    /// The body is complete: `count` bytes (also 0 for an empty body or a `304`).
    func finish(_ count: Int, _ onProgress: (@Sendable (Int, Int?) -> Void)?) {
        onProgress?(count, count)
    }
}
