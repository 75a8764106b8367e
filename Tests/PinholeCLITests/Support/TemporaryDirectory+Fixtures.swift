import Foundation

/// A fresh directory under the system temporary directory, removed by ``remove()``.
struct TemporaryDirectory: Sendable {
    /// Absolute path, without a trailing slash.
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// `path/relative`.
    func file(_ relative: String) -> String {
        path + "/" + relative
    }

    /// Writes `data` to `relative`, creating directories.
    func write(_ data: Data, to relative: String) throws {
        let url = URL(fileURLWithPath: file(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Copies the failure-corpus fixture `name` (Tests/Fixtures/cases/inputs) to `relative`.
    func copyFixture(_ name: String, to relative: String? = nil) throws {
        try write(Data(contentsOf: Fixtures.input(name)), to: relative ?? name)
    }

    /// The files under the directory `relative`, as sorted relative paths.
    func listing(_ relative: String) -> [String] {
        let root = file(relative)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Paths of the test fixtures, located from this file.
enum Fixtures {
    /// The repository root (three levels above this file).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A file of the failure corpus (Tests/Fixtures/cases/inputs).
    static func input(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/Fixtures/cases/inputs/\(name)")
    }
}
