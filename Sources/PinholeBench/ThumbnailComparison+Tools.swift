import Foundation
import Pinhole

#if canImport(Glibc)
    import Glibc
#endif

extension ThumbnailComparison {
    /// CPU seconds (user + system) and the largest maximum RSS of a set of processes.
    struct Usage {
        var cpuSeconds = 0.0
        var peakRSSBytes = 0

        mutating func add(_ other: Usage) {
            cpuSeconds += other.cpuSeconds
            peakRSSBytes = max(peakRSSBytes, other.peakRSSBytes)
        }
    }

    /// One round of one variant over `files`; every thumbnail must be written.
    func measure(_ variant: Variant, files: [String], stage: Stage, python: String) async throws -> Measurement {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-compare-\(UUID())").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let (size, quality, jobs) = (configuration.size, configuration.quality, variant.jobs)
        let vips = ["VIPS_CONCURRENCY": "1"]
        let clock = ContinuousClock()
        let start = clock.now
        var usage: Usage
        switch variant.tool {
        case .pinhole, .pinholeJPEG:
            let directory = variant.tool == .pinhole ? stage.allDirectory : stage.jpegDirectory
            usage = try await Self.timed(
                configuration.pinholeExecutable,
                [
                    "thumbnail", directory, "--size", "\(size)", "--format", "jpeg", "--quality", "\(quality)",
                    "--jobs", "\(jobs)", "--out", output,
                ])
        case .vipsthumbnail:
            usage = try await Self.perImage(files, jobs: jobs) { file in
                (
                    "/usr/bin/vipsthumbnail",
                    [
                        file, "--size", "\(size)x\(size)",
                        "-o", "\(output)/%s.jpg[Q=\(quality),strip]",
                    ], vips
                )
            }
        case .vipsthumbnailBatch:
            usage = try await Self.sharded(files, jobs: jobs) { shard in
                (
                    "/usr/bin/vipsthumbnail",
                    shard + [
                        "--size", "\(size)x\(size)",
                        "-o", "\(output)/%s.jpg[Q=\(quality),strip]",
                    ], vips
                )
            }
        case .imagemagick:
            usage = try await Self.perImage(files, jobs: jobs) { file in
                let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                return (
                    "/usr/bin/convert",
                    [
                        "-define", "jpeg:size=\(2 * size)x\(2 * size)", file, "-auto-orient",
                        "-thumbnail", "\(size)x\(size)", "-strip", "-quality", "\(quality)", "\(output)/\(stem).jpg",
                    ], ["MAGICK_THREAD_LIMIT": "1"]
                )
            }
        case .pillowDraft, .pyvips:
            let script = configuration.scriptsDirectory + "/bench-thumbnail.py"
            let tool = variant.tool == .pyvips ? "pyvips" : "pillow"
            usage = try await Self.sharded(files, jobs: jobs) { shard in
                (python, [script, tool, "\(size)", "\(quality)", output] + shard, vips)
            }
        case .turbojpegFloor:
            usage = try await TurboJPEGFloor.decode(files, threads: jobs)
        }
        let seconds = (clock.now - start) / .seconds(1)
        if variant.tool != .turbojpegFloor {
            let written = try FileManager.default.contentsOfDirectory(atPath: output).count
            guard written == files.count else {
                throw PinholeError(
                    .decodingFailed, "\(variant.tool.rawValue) ×\(jobs) wrote \(written) of \(files.count) thumbnails")
            }
        }
        return Measurement(seconds: seconds, cpuSeconds: usage.cpuSeconds, peakRSSBytes: usage.peakRSSBytes)
    }

    /// One process per file, `jobs` at a time.
    static func perImage(
        _ files: [String], jobs: Int,
        command: @escaping @Sendable (String) -> (String, [String], [String: String])
    ) async throws -> Usage {
        try await withThrowingTaskGroup(of: Usage.self) { group in
            var next = 0
            var total = Usage()
            func startNext() {
                guard next < files.count else { return }
                let (executable, arguments, environment) = command(files[next])
                group.addTask { try await timed(executable, arguments, environment: environment) }
                next += 1
            }
            for _ in 0..<min(jobs, files.count) { startNext() }
            while let usage = try await group.next() {
                total.add(usage)
                startNext()
            }
            return total
        }
    }

    /// `jobs` processes at once, process k given files k, k + jobs, k + 2·jobs …
    static func sharded(
        _ files: [String], jobs: Int,
        command: @escaping @Sendable ([String]) -> (String, [String], [String: String])
    ) async throws -> Usage {
        let shards = (0..<jobs).map { k in stride(from: k, to: files.count, by: jobs).map { files[$0] } }
        return try await withThrowingTaskGroup(of: Usage.self) { group in
            for shard in shards where !shard.isEmpty {
                let (executable, arguments, environment) = command(shard)
                group.addTask { try await timed(executable, arguments, environment: environment) }
            }
            var total = Usage()
            while let usage = try await group.next() { total.add(usage) }
            return total
        }
    }

    /// Runs one child under `/usr/bin/time -f "%U %S %M"` and returns its CPU time and maximum RSS.
    ///
    /// - Throws: ``PinholeError/Code/decodingFailed`` when the child exits non-zero.
    static func timed(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> Usage {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-time-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let result = try await ChildProcess.run(
            "/usr/bin/time", ["-f", "%U %S %M", "-o", report, executable] + arguments, environment: environment)
        guard result.status == 0 else {
            let name = URL(fileURLWithPath: executable).lastPathComponent
            throw PinholeError(.decodingFailed, "\(name) exited with \(result.status)")
        }
        let text = try await WorkerThreadPool.io.run { try String(contentsOfFile: report, encoding: .utf8) }
        // The last line holds the figures (time puts a "Command exited…" line first on failures).
        let fields = text.split(separator: "\n").last?.split(separator: " ").compactMap { Double($0) } ?? []
        guard fields.count == 3 else { throw PinholeError(.decodingFailed, "cannot read /usr/bin/time: \(text)") }
        return Usage(cpuSeconds: fields[0] + fields[1], peakRSSBytes: Int(fields[2]) * 1024)
    }
}
