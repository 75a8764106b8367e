import Foundation

/// Paths confined to a root directory, resolved the way the kernel resolves them (realpath(3)) and checked again on
/// the open descriptor, so no symbolic link, `..` or swapped directory leads a read outside the root.
///
/// Foundation's `resolvingSymlinksInPath()` is not used: when it gives up (a chain longer than it follows, a link
/// whose text overflows its buffer) it returns the unresolved path, which still starts with the root.
enum ConfinedPath {
    /// Why a path cannot be confined.
    enum Failure: Error, Equatable {
        /// Nothing is there (`ENOENT`, `ENOTDIR`).
        case notFound
        /// It does not resolve (a loop, a name too long, no permission…): the `strerror` text.
        case unresolvable(String)
    }

    /// `path` with every symbolic link, `.` and `..` resolved (realpath(3)). Blocking (file system).
    static func resolve(_ path: String) -> Result<String, Failure> {
        guard let resolved = realpath(path, nil) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .failure(.notFound) }
            return .failure(.unresolvable(String(cString: strerror(code))))
        }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// `path` with its deepest existing ancestor resolved and the missing components after it kept as written
    /// (for a path that does not resolve because its end does not exist).
    static func resolvingExistingAncestor(_ path: String) -> String {
        var missing: [String] = []
        var ancestor = URL(fileURLWithPath: path)
        while ancestor.path != "/" {
            missing.insert(ancestor.lastPathComponent, at: 0)
            ancestor = ancestor.deletingLastPathComponent()
            if case .success(let resolved) = resolve(ancestor.path) {
                return ([resolved == "/" ? "" : resolved] + missing).joined(separator: "/")
            }
        }
        return "/" + missing.joined(separator: "/")
    }

    /// Whether the resolved `path` lies inside the resolved `root` (the root itself is not inside).
    ///
    /// Compared byte by byte, as the kernel compares names: Swift's `String` comparison would take `café` and
    /// `cafe\u{301}` (two directories on disk) for one.
    static func isInside(_ path: String, root: String) -> Bool {
        let prefix = Array((root.hasSuffix("/") ? root : root + "/").utf8)
        let bytes = Array(path.utf8)
        return bytes.count > prefix.count && bytes.starts(with: prefix)
    }

    /// The path the open `descriptor` refers to, as the kernel names it (`/proc/self/fd/N`, Linux); `nil` when
    /// unknown, and then a confined read is refused (fail closed).
    static func path(of descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0, count < buffer.count - 1 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
