import Foundation
import Pinhole

/// The 2K-class corpus of the serving benchmark: every JPEG of the photo corpus resized by `vipsthumbnail` so its
/// longest side is 2048 pixels, JPEG q85 without metadata, in a temporary directory (never committed).
struct ServeCorpus: Sendable {
    /// The directory holding the files.
    let directory: URL
    /// File names in `directory`, sorted.
    let files: [String]
    /// Their sizes in bytes, in the order of ``files``.
    let sizes: [Int]

    /// The longest side of every file.
    static let longestSide = 2048
    static let quality = 85

    /// Makes the corpus from the JPEGs in `source` (the `.jpg`/`.jpeg` files, at most `limit` of them).
    ///
    /// - Throws: ``BenchServeError`` when `source` holds no JPEG or vipsthumbnail fails.
    static func make(from source: String, in directory: URL, limit: Int? = nil) async throws -> ServeCorpus {
        let names = try await WorkerThreadPool.io.run {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try FileManager.default.contentsOfDirectory(atPath: source)
                .filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
        }
        let chosen = limit.map { Array(names.prefix($0)) } ?? names
        guard !chosen.isEmpty else { throw BenchServeError("no JPEG in \(source)") }
        let inputs = chosen.map { source + "/" + $0 }
        let output = directory.path + "/%s.jpg[Q=\(quality),strip]"
        let made = try await ChildProcess.run(
            "/usr/bin/vipsthumbnail", ["--size", "\(longestSide)x\(longestSide)", "-o", output] + inputs)
        guard made.status == 0 else { throw BenchServeError("vipsthumbnail exited with status \(made.status)") }
        let (files, sizes) = try await WorkerThreadPool.io.run { () -> ([String], [Int]) in
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".jpg") }.sorted()
            let sizes = try files.map { name -> Int in
                let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/" + name)
                return (attributes[.size] as? NSNumber)?.intValue ?? 0
            }
            return (files, sizes)
        }
        guard files.count == chosen.count else {
            throw BenchServeError("vipsthumbnail made \(files.count) of \(chosen.count) files")
        }
        return ServeCorpus(directory: directory, files: files, sizes: sizes)
    }

    /// The mean file size in bytes.
    var meanBytes: Int { sizes.isEmpty ? 0 : sizes.reduce(0, +) / sizes.count }
}
