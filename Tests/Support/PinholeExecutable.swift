public import Foundation

/// The built `pinhole` executable that end-to-end tests run as a child process.
public enum PinholeExecutable {
    /// The repository's root directory (this file is `Tests/Support/PinholeExecutable.swift`).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `PINHOLE_BINARY` if set, else the `pinhole` SwiftPM built next to the running test bundle (so
    /// `--scratch-path .build-asan` runs the sanitized binary), else `.build/debug/pinhole`.
    public static var path: String {
        if let path = ProcessInfo.processInfo.environment["PINHOLE_BINARY"] { return path }
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let sibling = bundleDirectory.appendingPathComponent("pinhole").path
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        return repositoryRoot.appendingPathComponent(".build/debug/pinhole").path
    }
}
