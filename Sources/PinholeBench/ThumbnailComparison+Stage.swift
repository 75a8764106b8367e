import Foundation
import Pinhole

extension ThumbnailComparison {
    /// The corpus linked into a scratch directory under unique names (`007-kde-kite-4mp.png`), so that tools which
    /// name outputs by stem (vipsthumbnail's `%s`, the Python script) never overwrite each other's results
    /// (the corpus has `kde-kite-4mp.jpg` and `kde-kite-4mp.png`). `all/` holds every image, `jpeg/` the JPEGs
    /// only. Hard links when the file system allows them (no copy), copies otherwise.
    struct Stage: Sendable {
        var root: String
        var allDirectory: String { root + "/all" }
        var jpegDirectory: String { root + "/jpeg" }
        /// Paths of every staged image, sorted.
        var all: [String] = []
        /// Paths of the staged JPEGs, sorted.
        var jpegs: [String] = []

        /// Blocking: stages the images of `corpus` next to it (same file system, so hard links work).
        init(corpus: String) throws {
            let images = try ThumbnailBenchmark.listImages(corpus)
            guard !images.isEmpty else { throw PinholeError(.fileNotFound, "no images in \(corpus)") }
            let parent = URL(fileURLWithPath: corpus).deletingLastPathComponent().path
            root = parent + "/pinhole-compare-\(UUID().uuidString.prefix(8))"
            let manager = FileManager.default
            try manager.createDirectory(atPath: root + "/all", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: root + "/jpeg", withIntermediateDirectories: true)
            for (index, image) in images.enumerated() {
                let name = String(format: "%03d-", index) + URL(fileURLWithPath: image).lastPathComponent
                let isJPEG = Self.isJPEG(image)
                for directory in isJPEG ? [allDirectory, jpegDirectory] : [allDirectory] {
                    let target = directory + "/" + name
                    do { try manager.linkItem(atPath: image, toPath: target) } catch {
                        try manager.copyItem(atPath: image, toPath: target)
                    }
                    if directory == allDirectory { all.append(target) } else { jpegs.append(target) }
                }
            }
        }

        /// Deletes the scratch directory (the corpus itself is untouched).
        func remove() {
            try? FileManager.default.removeItem(atPath: root)
        }

        private static func isJPEG(_ path: String) -> Bool {
            guard let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            guard let head = try? handle.read(upToCount: 64) else { return false }
            return ImageFormat.sniff(head) == .image(.jpeg)
        }
    }
}
