public import Foundation

// File access for tests, off the cooperative pool (see ``onOwnThread(stackSize:_:)``).

/// Reads a whole file on a thread of its own (a test's `Data(contentsOf:)` would block a pool thread).
///
/// - Throws: what `Data(contentsOf:)` throws (the file is missing or unreadable).
public func readData(atPath path: String) async throws -> Data {
    try await onOwnThread { try Data(contentsOf: URL(fileURLWithPath: path)) }
}

/// Reads a whole UTF-8 text file on a thread of its own.
///
/// - Throws: what `String(contentsOfFile:encoding:)` throws.
public func readText(atPath path: String) async throws -> String {
    try await onOwnThread { try String(contentsOfFile: path, encoding: .utf8) }
}

/// Writes `data` to a file on a thread of its own (atomically: a reader never sees half of it).
public func writeData(_ data: Data, toPath path: String) async throws {
    try await onOwnThread { try data.write(to: URL(fileURLWithPath: path), options: .atomic) }
}

/// The file's text, or `""` when it cannot be read (a child's output file not written yet).
func readTextIfPresent(_ path: String) async -> String {
    await onOwnThread { FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "" }
}
