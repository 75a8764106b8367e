import Foundation
import Pinhole

/// `pinhole thumbnail --untrusted`: the checks an input file passes before it is read — inside the allowed
/// root (``UntrustedSourceGuard``: no `..`, symlinks resolved) and at most ``SourcePolicy/untrustedMaxBytes``.
struct UntrustedFileCheck: Sendable {
    let sourceGuard: UntrustedSourceGuard

    /// - Parameter root: the allowed directory, relative to the current directory or absolute.
    init(root: String) {
        sourceGuard = UntrustedSourceGuard(allowedFileRoot: URL(fileURLWithPath: root))
    }

    /// Blocking (file-system lookups); run on an I/O thread.
    ///
    /// - Throws: ``PinholeError`` with ``PinholeError/Code/untrustedSource`` outside the root, or
    ///   ``PinholeError/Code/dataTooLarge`` for a bigger file.
    func checkFile(_ path: String) throws {
        try sourceGuard.check(URL(fileURLWithPath: path))
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size > SourcePolicy.untrustedMaxBytes {
            throw PinholeError(
                .dataTooLarge, "\(path) has \(size) bytes, over the \(SourcePolicy.untrustedMaxBytes)-byte limit")
        }
    }
}
