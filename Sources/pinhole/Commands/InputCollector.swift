import Foundation
import Pinhole

/// Turns the INPUT arguments into the list of files to process, in a stable order.
///
/// - A file argument is taken as is, whatever its content (a non-image or a missing file fails later, with
///   a typed error in the report).
/// - A directory argument is searched recursively; its files are sorted by relative path (byte order of the
///   UTF-8 path) and kept only when their first bytes are an image signature (``ImageFormat/sniff(_:)``).
///   Hidden files and directories, and the excluded paths (the output directory, the contact sheet), are
///   skipped.
/// - Each local file's size is recorded (``InputFile/byteCount``), for the order in which a run starts them.
/// - A file reached twice (named and found in a directory) is kept once, at its first place.
///
/// All file-system work runs on the given ``WorkerThreadPool`` (blocking calls never run on the cooperative
/// pool).
struct InputCollector: Sendable {
    /// Absolute, standardised paths that are never taken as inputs, nor searched.
    let excludedPaths: Set<String>
    /// The pool that runs the blocking directory walks and head reads.
    let pool: WorkerThreadPool

    init(excluding excludedPaths: [String], pool: WorkerThreadPool = .io) {
        self.excludedPaths = Set(excludedPaths.map(Self.absolute))
        self.pool = pool
    }

    /// The files to process for `arguments`, in argument order, each directory's files sorted.
    func collect(_ arguments: [String]) async throws -> [InputFile] {
        var files: [InputFile] = []
        var seen: Set<String> = []
        for argument in arguments {
            try Task.checkCancellation()
            let found = try await pool.run { [self] in try self.files(for: argument) }
            for file in found where seen.insert(Self.absolute(file.path)).inserted {
                files.append(file)
            }
        }
        return files
    }

    /// Blocking: the files for one argument.
    private func files(for argument: String) throws -> [InputFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            let name = URL(fileURLWithPath: argument).lastPathComponent
            return [InputFile(path: argument, relativePath: name, isExplicit: true, byteCount: Self.size(argument))]
        }
        return try imageFiles(under: argument)
    }

    /// Blocking: the image files under `directory`, sorted by relative path.
    private func imageFiles(under directory: String) throws -> [InputFile] {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath()
        guard !excludedPaths.contains(root.path) else { return [] }
        let keys: [URLResourceKey] = [.isRegularFileKey, .isDirectoryKey, .fileSizeKey]
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: keys,
                options: [.skipsHiddenFiles])
        else { return [] }
        var found: [(relativePath: String, byteCount: Int?)] = []
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let url as URL in walker {
            let path = url.standardizedFileURL.path
            if excludedPaths.contains(path) {
                walker.skipDescendants()
                continue
            }
            let values = try? url.resourceValues(forKeys: Set(keys))
            guard values?.isRegularFile == true, path.hasPrefix(prefix) else { continue }
            found.append((String(path.dropFirst(prefix.count)), values?.fileSize))
        }
        found.sort { Array($0.relativePath.utf8).lexicographicallyPrecedes(Array($1.relativePath.utf8)) }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return found.compactMap { relative, byteCount in
            guard Self.startsWithImageSignature(prefix + relative) else { return nil }
            return InputFile(path: base + relative, relativePath: relative, isExplicit: false, byteCount: byteCount)
        }
    }

    /// Blocking: the size in bytes of what `path` names, symbolic links followed (`stat(2)`, which never opens the
    /// file, so a FIFO does not block); `nil` when it cannot be sized.
    private static func size(_ path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    /// Blocking: whether the first bytes of the file at `path` are a known image signature.
    private static func startsWithImageSignature(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 512) else { return false }
        if case .image = ImageFormat.sniff(head) { return true }
        return false
    }

    /// The absolute, standardised form of `path` (symbolic links resolved), for comparisons.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
