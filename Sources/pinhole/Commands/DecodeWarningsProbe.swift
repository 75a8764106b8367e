import Foundation
import Pinhole
import PinholeVips

/// `pinhole debug decode-warnings FILE…`: decodes every file with ``VipsDecoder`` (full size, then as a 64-px
/// thumbnail), one after the other, and prints one JSON line: how many decodes succeeded and failed, and the
/// warnings libvips captured (``Vips/drainWarnings()``).
///
/// For the test that libvips, GLib and the codecs never write to standard error: it runs this verb in a child
/// process and reads that child's standard error, which nothing else writes to. Bad files are the point, so
/// failed decodes do not fail the run: exit status 0 unless the verb is misused (2).
enum DecodeWarningsProbe {
    struct Report: Codable {
        var files: Int
        var decoded = 0
        var failed = 0
        var warnings: [String] = []
        /// Warnings a second drain found right after the first (0: draining empties the buffer).
        var leftAfterDrain = 0
    }

    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let files = DebugCommand.positionals(arguments)
        guard !files.isEmpty else { throw UsageError("no files") }
        var report = Report(files: files.count)
        let decoder = VipsDecoder()
        _ = Vips.drainWarnings()
        for file in files {
            guard let data = try? await WorkerThreadPool.io.run({ try Data(contentsOf: URL(fileURLWithPath: file)) })
            else { throw UsageError("cannot read \(file)") }
            for options in [DecodingOptions(), DecodingOptions(thumbnail: .init(maxPixelSize: 64))] {
                do {
                    _ = try await decoder.decode(data, options: options)
                    report.decoded += 1
                } catch {
                    report.failed += 1
                }
            }
        }
        report.warnings = Vips.drainWarnings()
        report.leftAfterDrain = Vips.drainWarnings().count
        DebugCommand.printJSON(report)
        return 0
    }
}
