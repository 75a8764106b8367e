public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs mounted by a test on a fresh directory, to meet a real `ENOSPC`. Mounting needs root
/// (`CAP_SYS_ADMIN`); ``isPermitted`` says whether this process may. The mount and unmount are system calls made
/// on a thread of their own.
public struct TmpfsMount: Sendable {
    public let directory: URL

    /// Whether a tmpfs can be mounted here (tries one and unmounts it).
    public static var isPermitted: Bool {
        get async {
            guard let mount = try? await TmpfsMount(bytes: 64 * 1024) else { return false }
            await mount.remove()
            return true
        }
    }

    /// Mounts a tmpfs of `bytes` (rounded up to pages) on a new directory under the temporary directory.
    ///
    /// - Throws: `POSIXError` when the directory cannot be made or the mount is refused (`EPERM` without root).
    public init(bytes: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let status = await onOwnThread { () -> Int32 in
            Glibc.mount("tmpfs", directory.path, "tmpfs", 0, "size=\(bytes),mode=0700") == 0 ? 0 : errno
        }
        guard status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EPERM)
        }
        self.directory = directory
    }

    /// Fills the file system up: writes zeros to `name` until the write fails with `ENOSPC`.
    public func fill(_ name: String = "filler") async throws {
        let path = directory.appendingPathComponent(name).path
        let status = await onOwnThread { () -> Int32 in
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { return errno }
            defer { close(fd) }
            let chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written < 0 { return errno }
            }
        }
        guard status == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
    }

    /// Unmounts (detached: lazily, once no file is open there) and removes the directory.
    public func remove() async {
        _ = await onOwnThread { umount2(directory.path, Int32(MNT_DETACH)) }
        try? FileManager.default.removeItem(at: directory)
    }
}
