import Foundation
import Glibc
import PinholeTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Shared helpers: URLSessions, polling for server-side effects, a raw-socket client and descriptor checks.
enum TestSupport {
    /// An ephemeral session that does not cache and opens up to `maxConnectionsPerHost` connections per host.
    static func makeSession(maxConnectionsPerHost: Int = 6) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` × the load factor (30 s by default, an upper
    /// bound for loaded CI machines and sanitizer builds, not a speed requirement) passes; returns its last value
    /// (`PinholeTestSupport.eventually`).
    static func eventually(
        timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool
    ) async throws -> Bool {
        await PinholeTestSupport.eventually(timeout: timeout, every: .milliseconds(10)) { condition() }
    }

    /// Runs blocking `body` on a new thread of its own, so tests never block the cooperative pool
    /// (`PinholeTestSupport.onOwnThread`).
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await PinholeTestSupport.onOwnThread(body)
    }

    /// The status code of an HTTP response, or -1.
    static func status(_ response: URLResponse) -> Int {
        (response as? HTTPURLResponse)?.statusCode ?? -1
    }

    /// Whether a descriptor still refers to the same open file: (device, inode), or nil when closed.
    static func identity(of fd: Int32) -> [UInt64]? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// `readlink` of every entry of /proc/self/fd, e.g. `socket:[123]`.
    static func openFileTargets() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
    }
}

/// A blocking HTTP client on raw sockets, for what URLSession cannot send (garbage, huge heads, pipelining).
/// Call it only from ``TestSupport/onOwnThread(_:)``.
final class RawClient {
    let fd: Int32

    /// Connects to 127.0.0.1:`port`; receives time out after `timeout`.
    init?(port: Int, timeout: Duration = .seconds(5)) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        var time = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads until the server closes, the receive times out, or `limit` bytes arrived.
    func receiveAll(limit: Int = 1 << 20) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while received.count < limit {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return received
    }

    /// Reads until `marker` has been seen `times` times (or close/timeout).
    func receive(untilSeen marker: String, times: Int = 1) -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while String(decoding: received, as: UTF8.self).components(separatedBy: marker).count - 1 < times {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// One exchange on a new connection: sends `request`, returns everything until the server closes.
    static func exchange(port: Int, _ request: String) async -> String {
        await TestSupport.onOwnThread {
            guard let client = RawClient(port: port) else { return "" }
            client.send(request)
            return String(decoding: client.receiveAll(), as: UTF8.self)
        }
    }
}
