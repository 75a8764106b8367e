import Foundation
import Pinhole

#if canImport(Glibc)
    import Glibc
    import PinholeShared
#endif

/// Reads an input list — one path or URL per line — a chunk at a time, so memory stays flat however long the
/// list is: at most one chunk (64 KiB) and one line (``maxLineBytes``) are held.
///
/// Lines are UTF-8, separated by `\n`; a trailing `\r` is removed (CRLF lists), lines of only spaces and tabs
/// are skipped, everything else is taken as is (spaces inside a path are part of it). A line that is too
/// long, holds a NUL byte or is not UTF-8 becomes an ``Entry/invalid(_:hash:lineNumber:)`` entry (the run
/// reports it and goes on) without being kept in memory.
///
/// The blocking `read(2)` calls run on ``pool`` (its own threads, since a read from a pipe may wait for as
/// long as the producer of the list takes). Not thread-safe: one task reads.
final class InputListReader {
    /// One non-empty line of the list.
    enum Entry: Sendable, Equatable {
        /// A path or URL, with the ``StableHash`` of its UTF-8 bytes.
        case input(String, hash: UInt64, lineNumber: Int)
        /// A line that cannot be an input; `reason` says why. `hash` is over its bytes, so exactly one shard
        /// reports it.
        case invalid(_ reason: String, hash: UInt64, lineNumber: Int)

        /// The entry's stable hash (which shard it belongs to).
        var hash: UInt64 {
            switch self {
            case .input(_, let hash, _), .invalid(_, let hash, _): hash
            }
        }
    }

    /// The longest line taken, in bytes (Linux paths are at most 4,096 bytes; long URLs fit).
    static let maxLineBytes = 16_384
    /// Bytes read per `read(2)`.
    static let defaultChunkBytes = 65_536

    /// Threads for the list's blocking reads: shared by the process, separate from ``WorkerThreadPool/io`` so a
    /// slow pipe never holds a thread that loads images.
    static let pool = WorkerThreadPool(threadCount: 2, name: "pinhole-list")

    /// The list's path as given (`-` for stdin), for messages.
    let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let chunkBytes: Int
    private var chunk: [UInt8] = []
    private var position = 0
    private var line: [UInt8] = []
    private var lineBytes = 0
    private var lineHash = StableHash()
    private var lineNumber = 0
    private var atEnd = false
    private var isClosed = false

    /// Opens the list at `path` (`-`: standard input, which is read but never closed).
    ///
    /// - Parameter chunkBytes: bytes per read; 64 KiB by default (tests use small chunks to split lines).
    /// - Throws: ``PinholeError`` ``PinholeError/Code/fileNotFound`` when nothing is at `path`,
    ///   ``PinholeError/Code/fileUnreadable`` when it cannot be opened (permissions, …).
    init(path: String, chunkBytes: Int = defaultChunkBytes) async throws {
        name = path == "-" ? "stdin" : path
        self.chunkBytes = max(1, chunkBytes)
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            return
        }
        descriptor = try await Self.pool.run { () throws(PinholeError) -> Int32 in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                let reason = String(cString: strerror(code))
                if code == ENOENT { throw PinholeError(.fileNotFound, "no such input list: \(path)") }
                throw PinholeError(.fileUnreadable, "cannot open the input list \(path): \(reason)")
            }
            return descriptor
        }
        ownsDescriptor = true
    }

    deinit {
        if ownsDescriptor && !isClosed { Glibc.close(descriptor) }
    }

    /// The next non-empty line, or `nil` at the end of the list.
    ///
    /// - Throws: ``PinholeError`` ``PinholeError/Code/fileUnreadable`` when a read fails (an I/O error, a
    ///   directory given as the list); `CancellationError` when the task is cancelled between reads.
    func next() async throws -> Entry? {
        while true {
            if position == chunk.count {
                if atEnd { return lineBytes > 0 ? finishLine() : nil }
                try await readChunk()
                continue
            }
            let rest = chunk[position...]
            if let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                append(chunk[position..<newline])
                position = newline + 1
                if let entry = finishLine() { return entry }
            } else {
                append(rest)
                position = chunk.count
            }
        }
    }

    /// Closes the list (not standard input). Further reads return `nil`.
    func close() {
        if ownsDescriptor && !isClosed { Glibc.close(descriptor) }
        isClosed = true
        atEnd = true
        chunk = []
        position = 0
    }

    private func readChunk() async throws {
        guard !isClosed else {
            atEnd = true
            return
        }
        try Task.checkCancellation()
        let (descriptor, size, name) = (self.descriptor, chunkBytes, self.name)
        let bytes = try await Self.pool.run { () throws(PinholeError) -> [UInt8] in
            var buffer = [UInt8](repeating: 0, count: size)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, size) }
                if count >= 0 { return Array(buffer[0..<count]) }
                if errno == EINTR { continue }
                throw PinholeError(
                    .fileUnreadable,
                    "cannot read the input list \(name): "
                        + String(cString: strerror(errno)))
            }
        }
        chunk = bytes
        position = 0
        if bytes.isEmpty { atEnd = true }
    }

    /// Adds the bytes of the current line: hashed all, kept up to ``maxLineBytes``.
    private func append(_ bytes: ArraySlice<UInt8>) {
        lineHash.combine(bytes)
        lineBytes += bytes.count
        if line.count < Self.maxLineBytes {
            line.append(contentsOf: bytes.prefix(Self.maxLineBytes - line.count))
        }
    }

    /// The entry for the line read so far (`nil` for an empty one), and a fresh line. Line numbers count
    /// every line, empty ones included, from 1.
    private func finishLine() -> Entry? {
        defer {
            line.removeAll(keepingCapacity: line.capacity <= 4096)
            lineBytes = 0
            lineHash = StableHash()
        }
        lineNumber += 1
        guard lineBytes > 0 else { return nil }
        if lineBytes > Self.maxLineBytes {
            return .invalid(
                "line \(lineNumber) is longer than \(Self.maxLineBytes) bytes (\(lineBytes))",
                hash: lineHash.value, lineNumber: lineNumber)
        }
        var bytes = line[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard bytes.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return nil }
        let hash = StableHash.fnv1a64(bytes)
        if bytes.contains(0) {
            return .invalid("line \(lineNumber) holds a NUL byte", hash: hash, lineNumber: lineNumber)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .invalid("line \(lineNumber) is not valid UTF-8", hash: hash, lineNumber: lineNumber)
        }
        return .input(text, hash: hash, lineNumber: lineNumber)
    }
}
