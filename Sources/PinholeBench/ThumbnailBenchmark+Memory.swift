import Foundation
import Pinhole

extension ThumbnailBenchmark {
    /// Peak RSS of single thumbnails, each made in a fresh `pinhole bench rss FILE` process, against a 1×1 JPEG:
    /// ``Configuration/rssFiles``, then ``Configuration/heicSources`` re-encoded to HEIC.
    func measureMemory() async throws -> ThumbnailBenchmarkResult.Memory {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-rss-\(UUID())")
        try await WorkerThreadPool.io.run {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: work) }
        let reference = work.appendingPathComponent("1x1.jpg").path
        try await RSSProbe.writeOnePixelJPEG(to: reference)
        let referenceProbe = try await probe(reference)
        var probes: [ThumbnailBenchmarkResult.Memory.Probe] = []
        for file in try await configuration.rssFiles + heicCopies(in: work) {
            let result = try await probe(file)
            probes.append(
                .init(
                    file: file, width: result.width, height: result.height, peakRSSBytes: result.peakResidentBytes,
                    overReferenceBytes: result.peakResidentBytes - referenceProbe.peakResidentBytes))
        }
        return .init(referencePeakRSSBytes: referenceProbe.peakResidentBytes, probes: probes)
    }

    /// ``Configuration/heicSources`` re-encoded to HEIC in `directory` (same base names), by libvips' own tool.
    ///
    /// - Throws: ``PinholeError/Code/encodingFailed`` when `vips` fails.
    private func heicCopies(in directory: URL) async throws -> [String] {
        var copies: [String] = []
        for source in configuration.heicSources {
            let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent + ".heic"
            let copy = directory.appendingPathComponent(name).path
            let run = try await ChildProcess.run(configuration.vipsExecutable, ["copy", source, copy + "[Q=80]"])
            guard run.status == 0 else {
                throw PinholeError(.encodingFailed, "vips copy \(source) exited \(run.status)")
            }
            copies.append(copy)
        }
        return copies
    }

    /// The probe of `file` with the median peak RSS over ``Configuration/rssRuns`` fresh processes.
    private func probe(_ file: String) async throws -> RSSProbe.Result {
        var results: [RSSProbe.Result] = []
        for _ in 0..<max(1, configuration.rssRuns) {
            let run = try await ChildProcess.run(
                configuration.pinholeExecutable, ["bench", "rss", file, "--json"],
                capturesOutput: true)
            guard run.status == 0 else { throw PinholeError(.decodingFailed, "bench rss \(file) exited \(run.status)") }
            results.append(try JSONDecoder().decode(RSSProbe.Result.self, from: Data(run.standardOutput.utf8)))
        }
        return results.sorted { $0.peakResidentBytes < $1.peakResidentBytes }[results.count / 2]
    }

    /// Blocking: the image files (by content) under `directory`, sorted by path; hidden files skipped.
    static func listImages(_ directory: String) throws -> [String] {
        let root = URL(fileURLWithPath: directory)
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { throw PinholeError(.fileNotFound, "no such directory: \(directory)") }
        var images: [String] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            guard let handle = FileHandle(forReadingAtPath: url.path) else { continue }
            defer { try? handle.close() }
            if let head = try handle.read(upToCount: 512), case .image = ImageFormat.sniff(head) {
                images.append(url.path)
            }
        }
        return images.sorted()
    }

    /// Blocking: the total size of `files` in bytes.
    static func totalBytes(_ files: [String]) -> Int {
        files.reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        }
    }
}
