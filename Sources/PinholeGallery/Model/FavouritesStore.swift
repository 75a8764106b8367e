public import Foundation
import Glibc
import Pinhole

/// Reads and writes the set of favourite item ids, as `{"version": 1, "favourites": ["id", …]}` (ids sorted).
///
/// All file work runs on ``WorkerThreadPool/io``, never on the main actor or Swift's cooperative pool.
/// Writes are atomic: the JSON goes to a temporary file in the same directory, which is then renamed over the
/// old one, so a crash leaves either the old or the new set, never half a file. A file that is not valid
/// favourites JSON is reported, moved aside to `favourites.json.corrupt` and replaced by an empty set.
///
/// Thread-safe (a value type holding only a URL).
public struct FavouritesStore: Sendable {
    /// What ``load()`` found.
    public struct Loaded: Sendable, Equatable {
        /// The favourite item ids.
        public var ids: Set<String>
        /// A sentence for the status line when the file was corrupt or unreadable; `nil` otherwise.
        public var problem: String?

        public init(ids: Set<String>, problem: String?) {
            self.ids = ids
            self.problem = problem
        }
    }

    /// The favourites file.
    public let fileURL: URL

    /// - Parameter fileURL: where the favourites live (see ``defaultFileURL(environment:)``).
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// `$XDG_DATA_HOME/pinhole/favourites.json`, with `XDG_DATA_HOME` defaulting to `~/.local/share`
    /// (also when it is set but not an absolute path, as the XDG spec says).
    public static func defaultFileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let dataHome: String
        if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") {
            dataHome = value
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            dataHome = home + "/.local/share"
        }
        return URL(fileURLWithPath: dataHome).appendingPathComponent("pinhole/favourites.json")
    }

    private struct Document: Codable {
        var version: Int
        var favourites: [String]
    }

    /// Reads the favourites. A missing file is an empty set. A corrupt file is moved aside, replaced by an empty
    /// set and reported in ``Loaded/problem``; this never throws.
    public func load() async -> Loaded {
        let url = fileURL
        do {
            return try await WorkerThreadPool.io.run { Self.loadNow(url) }
        } catch {
            return Loaded(ids: [], problem: "favourites not read: \(error)")
        }
    }

    /// Blocking read; runs only inside `WorkerThreadPool.io.run` (see `load()`), never on the cooperative pool.
    private static func loadNow(_ url: URL) -> Loaded {
        guard FileManager.default.fileExists(atPath: url.path) else { return Loaded(ids: [], problem: nil) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return Loaded(ids: [], problem: "favourites unreadable (\(url.lastPathComponent)): started empty")
        }
        if let document = try? JSONDecoder().decode(Document.self, from: data) {
            return Loaded(ids: Set(document.favourites), problem: nil)
        }
        let aside = url.appendingPathExtension("corrupt")
        _ = Glibc.rename(url.path, aside.path)
        do {
            try writeNow([], to: url)
        } catch {
            return Loaded(ids: [], problem: "favourites file was corrupt and could not be replaced: \(error)")
        }
        return Loaded(
            ids: [], problem: "favourites file was corrupt: kept as \(aside.lastPathComponent), started empty")
    }

    /// Writes `ids` atomically (temporary file + `rename`), creating the directory if needed.
    ///
    /// - Throws: `CocoaError` or ``PinholeError`` (``PinholeError/Code/fileUnreadable``) when the file cannot be
    ///   written; `CancellationError` if the task was cancelled before the write started.
    public func save(_ ids: Set<String>) async throws {
        let url = fileURL
        try await WorkerThreadPool.io.run { try Self.writeNow(ids, to: url) }
    }

    private static func writeNow(_ ids: Set<String>, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(Document(version: 1, favourites: ids.sorted()))
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
            throw PinholeError(.fileUnreadable, "cannot write \(temporary.path)")
        }
        guard Glibc.rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw PinholeError(.fileUnreadable, "cannot rename onto \(url.path): \(String(cString: strerror(code)))")
        }
    }
}
