import Foundation
import Pinhole

#if canImport(Glibc)
    import Glibc
#endif

/// Blocking file reads and writes that report ``PinholeError``s. Call them on a ``WorkerThreadPool``
/// (``read(_:)`` and ``write(_:to:)`` block the calling thread), never directly from async code.
enum FileAccess {
    /// The whole content of the file at `path`.
    ///
    /// - Throws: ``PinholeError`` ``PinholeError/Code/fileNotFound`` when nothing is at `path`, and
    ///   ``PinholeError/Code/fileUnreadable`` for a directory, missing permission or an I/O error.
    static func read(_ path: String) throws(PinholeError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PinholeError(.fileNotFound, "no such file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw PinholeError(.fileUnreadable, "is a directory: \(path)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PinholeError(.fileUnreadable, "cannot read \(path): \(describe(error))", underlying: error)
        }
    }

    /// Writes `data` to `path` atomically (a temporary file renamed into place), creating missing directories.
    ///
    /// - Throws: ``PinholeError`` ``PinholeError/Code/writeFailed`` (the message names `path`) when the file cannot be
    ///   written.
    static func write(_ data: Data, to path: String) throws(PinholeError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw PinholeError(.writeFailed, "cannot write \(path): \(describe(error))", underlying: error)
        }
    }

    /// Creates the directory at `path` and its parents if missing.
    ///
    /// - Throws: ``PinholeError`` ``PinholeError/Code/writeFailed`` when it cannot be created.
    static func createDirectory(_ path: String) throws(PinholeError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw PinholeError(
                .writeFailed, "cannot create directory \(path): \(describe(error))",
                underlying: error)
        }
    }

    /// A short reason: the POSIX error's text when there is one, else the error's description.
    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return nsError.localizedDescription
    }
}
