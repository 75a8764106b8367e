import Foundation
import Pinhole
import PinholeShared

@testable import pinhole

/// Runs ``ThumbnailCommand/runBatch(reporter:countsTotal:queueCapacity:)`` with fake codecs and captures what
/// a batch run prints, for the batch tests.
struct BatchHarness {
    /// What one run printed and returned.
    struct Run {
        var summary: BatchSummary
        /// The `--jsonl` lines, decoded.
        var records: [BatchRecord]
        /// The most inputs read but not yet finished, seen after any input finished.
        var maxReadAhead: Int
    }

    /// Wraps the fake encoder's text in JPEG's SOI and EOI markers, so a written output is a whole "JPEG" to
    /// ``OutputCompleteness`` (and one cut short is not).
    struct FramedEncoder: ImageEncoding {
        let inner: FakeCodecs

        func encode(_ image: PixelImage, options: EncodingOptions) async throws -> Data {
            Data([0xFF, 0xD8]) + (try await inner.encode(image, options: options)) + Data([0xFF, 0xD9])
        }
    }

    let fakes: FakeCodecs

    init(decodeDuration: Duration = .milliseconds(1)) {
        fakes = FakeCodecs(decodeDuration: decodeDuration)
    }

    var codecs: ThumbnailCommand.Codecs {
        ThumbnailCommand.Codecs(decoder: fakes, encoder: FramedEncoder(inner: fakes)) { _, _ in
            throw PinholeError(.invalidRequest, "no contact sheet in batch runs")
        }
    }

    /// Runs `configuration` as a batch, with `--jsonl` lines captured.
    func run(_ configuration: ThumbnailCommand.Configuration, queueCapacity: Int? = nil) async throws -> Run {
        let lines = Locked(Data())
        let readAhead = Locked(0)
        let output = BatchReporter.Output(
            standardOutput: { data in lines.withLock { $0.append(data) } }, standardError: { _ in })
        let reporter = BatchReporter(style: .jsonLines, output: output) { counters in
            readAhead.withLock { $0 = max($0, counters.listed - counters.finished) }
        }
        let summary = await ThumbnailCommand(configuration: configuration, codecs: codecs)
            .runBatch(reporter: reporter, queueCapacity: queueCapacity)
        let text = lines.withLock { String(decoding: $0, as: UTF8.self) }
        let records = try text.split(separator: "\n").map { line in
            try JSONDecoder().decode(BatchRecord.self, from: Data(line.utf8))
        }
        return Run(summary: summary, records: records, maxReadAhead: readAhead.withLock { $0 })
    }
}
