public import Foundation

/// The test suites' one temporary directory: a fresh directory under the system temporary directory, removed
/// when the value is released (or earlier by ``remove()``). Keep the value alive for as long as the test uses
/// the directory (hold it in a `let` of the test, not only its ``url``).
///
/// Its methods touch the file system synchronously: call them from synchronous code or off the cooperative
/// pool when the files are large.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// The directory's absolute path, without a trailing slash.
    public var path: String { url.path }

    /// Creates the directory, named `prefix` followed by a UUID.
    ///
    /// - Throws: the file system's error when the directory cannot be created.
    public init(prefix: String = "pinhole-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The URL of `name` (a file, or a relative path) inside the directory.
    public func fileURL(_ name: String) -> URL { url.appendingPathComponent(name, isDirectory: false) }

    /// The path of `relative` inside the directory (`path/relative`).
    public func file(_ relative: String) -> String { path + "/" + relative }

    /// Writes `data` to `relative`, creating the directories on the way.
    ///
    /// - Throws: the file system's error.
    public func write(_ data: Data, to relative: String) throws {
        let file = fileURL(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// The names of the entries directly in the directory, sorted.
    ///
    /// - Throws: the file system's error.
    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// The regular files anywhere under `relative` (the whole directory by default), as sorted paths relative
    /// to it; empty when it does not exist.
    public func listing(_ relative: String = "") -> [String] {
        let root = relative.isEmpty ? path : file(relative)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    /// Removes the directory and everything in it now (it is removed on release anyway).
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
