import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips

/// A virtual X display of its own for a test: `Xvfb` started on a free display number (it picks one and reports
/// it through `-displayfd`, so parallel tests and other users of the machine never collide), screenshots of it,
/// and window geometry. ``stop()`` ends the server; the test calls it on every way out.
struct XvfbDisplay {
    /// `:N`.
    let name: String
    private let server: SpawnedProcess
    private let scratch: URL

    /// Starts `Xvfb` with a 1280×800 24-bit screen and waits (at most `timeout`) until it names its display.
    ///
    /// - Throws: ``PinholeError`` when Xvfb cannot start or names no display in time.
    static func start(scratch: URL, timeout: Duration = .seconds(60)) async throws -> XvfbDisplay {
        let server = try SpawnedProcess(
            ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, server.status == nil {
            let text = await server.stdout().trimmingCharacters(in: .whitespacesAndNewlines)
            if let number = Int(text) {
                // And until a client can connect: xterm once failed with "Can't open display" right after the
                // display was named (under TSan, in CI here), so a client must get in before the test starts one.
                let display = XvfbDisplay(name: ":\(number)", server: server, scratch: scratch)
                while ContinuousClock.now < deadline, server.status == nil {
                    if try await Spawn.run(["xwininfo", "-display", display.name, "-root"]) == 0 { return display }
                    try await Task.sleep(for: .milliseconds(100))
                }
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        await server.stop()
        throw PinholeError(
            .fileNotFound, "Xvfb named no display within \(timeout) (exit status \(server.status ?? -1))")
    }

    /// Ends the X server (and with it every client still connected).
    func stop() async {
        await server.stop()
    }

    /// A screenshot of the whole screen (ImageMagick's `import -window root`), decoded by libvips (rgb8).
    func screenshot() async throws -> PixelImage {
        let path = scratch.appendingPathComponent("screen-\(UUID().uuidString).png").path
        let status = try await Spawn.run(["import", "-display", name, "-window", "root", path])
        guard status == 0 else { throw PinholeError(.decodingFailed, "import exited with \(status)") }
        let data = try await WorkerThreadPool.io.run { () throws -> Data in
            defer { try? FileManager.default.removeItem(atPath: path) }
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return try await VipsDecoder().decode(data, options: DecodingOptions()).image
    }

    /// Saves a screenshot as PNG at `path` (for the README or to look at a failure).
    func saveScreenshot(to path: String) async throws {
        _ = try await Spawn.run(["import", "-display", name, "-window", "root", path])
    }

    /// The position and size in pixels of the window titled `title` (`xwininfo -name`), or `nil` while there is
    /// none.
    func window(titled title: String) async throws -> (x: Int, y: Int, width: Int, height: Int)? {
        let path = scratch.appendingPathComponent("xwininfo-\(UUID().uuidString)").path
        _ = try await Spawn.run(["xwininfo", "-display", name, "-name", title], outputPath: path)
        let text = try await WorkerThreadPool.io.run { () throws -> String in
            defer { try? FileManager.default.removeItem(atPath: path) }
            return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
        func value(_ label: String) -> Int? {
            text.split(separator: "\n").first { $0.contains(label) }
                .flatMap { $0.split(separator: ":").last }
                .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        guard let x = value("Absolute upper-left X"), let y = value("Absolute upper-left Y"),
            let width = value("Width"), let height = value("Height")
        else { return nil }
        return (x, y, width, height)
    }
}
