import CTurboJPEG
import Foundation
import Pinhole

#if canImport(Glibc)
    import Glibc
    import PinholeShared
#endif

/// The floor of a JPEG thumbnail on this machine: read each file and decode it with TurboJPEG at 1/8 scale to
/// RGB (CMYK files: to CMYK), nothing else (no orientation, no resize, no encode). What any JPEG thumbnailer
/// must at least spend.
enum TurboJPEGFloor {
    /// Threads for the floor's decodes (idle unless the floor runs).
    private static let pool = WorkerThreadPool(threadCount: 16, name: "pinhole-floor")

    /// Decodes every file at 1/8 scale, `threads` at a time (thread k takes files k, k + threads …).
    ///
    /// - Returns: this process's CPU time over the call (`getrusage(RUSAGE_SELF)`: user + system) and its peak
    ///   RSS so far.
    /// - Throws: ``PinholeError/Code/decodingFailed`` when a file cannot be read or decoded.
    static func decode(_ files: [String], threads: Int) async throws -> ThumbnailComparison.Usage {
        let before = cpuSeconds()
        let count = min(max(1, threads), 16)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for k in 0..<count {
                let shard = stride(from: k, to: files.count, by: count).map { files[$0] }
                group.addTask { try await pool.run { try decodeSerially(shard) } }
            }
            while let decoded = try await group.next() { blackHole(decoded) }
        }
        return .init(cpuSeconds: cpuSeconds() - before, peakRSSBytes: ProcessStats.peakResidentBytes())
    }

    /// Blocking: decodes `files` one after another with one handle and one reused output buffer; returns the
    /// number of pixels decoded.
    private static func decodeSerially(_ files: [String]) throws -> Int {
        guard let handle = tjInitDecompress() else { throw PinholeError(.decodingFailed, "tjInitDecompress failed") }
        defer { tjDestroy(handle) }
        var buffer: [UInt8] = []
        var pixels = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw PinholeError(.fileNotFound, "cannot read \(file)")
            }
            try data.withUnsafeBytes { bytes in
                let jpeg = bytes.bindMemory(to: UInt8.self)
                var width: Int32 = 0
                var height: Int32 = 0
                var subsampling: Int32 = 0
                var colourSpace: Int32 = 0
                guard
                    tjDecompressHeader3(
                        handle, jpeg.baseAddress, UInt(jpeg.count), &width, &height, &subsampling, &colourSpace) == 0
                else { throw PinholeError(.decodingFailed, "\(file): \(String(cString: tjGetErrorStr2(handle)))") }
                let scaledWidth = (Int(width) + 7) / 8
                let scaledHeight = (Int(height) + 7) / 8
                // CMYK and YCCK cannot become RGB in TurboJPEG: they are decoded to CMYK (4 bytes a pixel).
                let isCMYK = colourSpace == TJCS_CMYK.rawValue || colourSpace == TJCS_YCCK.rawValue
                let (format, bytesPerPixel) = isCMYK ? (TJPF_CMYK, 4) : (TJPF_RGB, 3)
                let needed = scaledWidth * scaledHeight * bytesPerPixel
                if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
                let status = buffer.withUnsafeMutableBufferPointer { output in
                    tjDecompress2(
                        handle, jpeg.baseAddress, UInt(jpeg.count), output.baseAddress, Int32(scaledWidth),
                        Int32(scaledWidth * bytesPerPixel), Int32(scaledHeight), format.rawValue, 0)
                }
                guard status == 0 || tjGetErrorCode(handle) == TJERR_WARNING.rawValue else {
                    throw PinholeError(.decodingFailed, "\(file): \(String(cString: tjGetErrorStr2(handle)))")
                }
                pixels += scaledWidth * scaledHeight
            }
        }
        return pixels
    }

    /// User + system CPU time of this process so far, in seconds.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
