import Foundation
import Pinhole
import PinholeVips

/// `pinhole debug memory-estimate FILE… [--size PIXELS]`: prints, for each file, one JSON line with what
/// ``VipsDecoder/estimatedMemory(of:options:frames:)`` reserves for a thumbnail of it (the longest side
/// `--size`, 360 by default) and its pixels, or the error the estimate throws. For checking the estimate against
/// `/usr/bin/time -f %M pinhole thumbnail FILE --size PIXELS` (BENCHMARKS.md, "Memory admission"). Exit status 1
/// when any estimate failed.
enum MemoryEstimateProbe {
    struct Line: Codable {
        var file: String
        var estimateBytes: Int?
        var pixels: Int?
        var error: String?
    }

    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let files = DebugCommand.positionals(arguments)
        guard !files.isEmpty else { throw UsageError("no files") }
        let size = try DebugCommand.integer("--size", in: arguments, default: 360)
        guard size >= 1 else { throw UsageError("--size must be at least 1") }
        let decoder = VipsDecoder()
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: size))
        var failed = false
        for file in files {
            var line = Line(file: file)
            do {
                let data = try await WorkerThreadPool.io.run { try Data(contentsOf: URL(fileURLWithPath: file)) }
                line.estimateBytes = try await decoder.estimatedMemory(of: data, options: options)
                let info = try await decoder.readInfo(data)
                line.pixels = info.width * info.height
            } catch {
                line.error = "\(error)"
                failed = true
            }
            DebugCommand.printJSON(line)
        }
        return failed ? 1 : 0
    }
}
