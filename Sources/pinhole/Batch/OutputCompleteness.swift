import Foundation
import Pinhole

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a thumbnail file already written is whole, for `--skip-existing`: the file must start with its
/// format's signature and end where the format says it ends.
///
/// - JPEG: starts `FF D8`, ends with the EOI marker `FF D9`.
/// - PNG: starts with the 8-byte signature, ends with the 12-byte `IEND` chunk.
/// - WebP: `RIFF`, size, `WEBP`, and the RIFF size + 8 equals the file size.
///
/// Outputs are written to a temporary file and renamed into place (``FileAccess/write(_:to:)``), so a killed
/// run leaves no partial file under an output name; this check also catches a file cut short some other
/// way (a full disk, a copy interrupted, a crash of the machine before the data reached the disk), which is
/// then made again. It reads 12 bytes at each end, never the whole file. Blocking: call it on a
/// ``WorkerThreadPool``.
enum OutputCompleteness {
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Whether the file at `path` is a whole image of `format` (`jpeg`, `png` or `webp`); `false` when it is
    /// missing, unreadable, cut short, or of another format.
    static func isComplete(atPath path: String, format: ImageFormat) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
        let size = Int(status.st_size)
        guard size >= 12, let head = read(descriptor, at: 0, count: 12),
            let tail = read(descriptor, at: size - 12, count: 12)
        else { return false }
        switch format {
        case .jpeg:
            return head.starts(with: [0xFF, 0xD8]) && tail.suffix(2).elementsEqual([0xFF, 0xD9])
        case .png:
            return size >= 8 + 25 + 12 && head.starts(with: pngSignature) && tail == pngEnd
        case .webp:
            guard head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) else { return false }
            let riffSize = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
            return riffSize + 8 == size
        default:
            return false
        }
    }

    /// `count` bytes at `offset`, or `nil` when fewer could be read.
    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = buffer.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return -1 }
                return pread(descriptor, base + done, count - done, off_t(offset + done))
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return nil }
            done += result
        }
        return buffer
    }
}
