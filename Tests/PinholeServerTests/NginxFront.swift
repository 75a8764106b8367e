import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `deploy/nginx/pinhole-cluster.conf` as `scripts/cluster.sh` runs it: Debian's nginx with the template's
/// placeholders filled in, in front of servers on loopback ports (consistent hashing on the source,
/// `proxy_next_upstream`, `proxy_cache`). Its access log has one line per request:
/// `$msec $status $upstream_status "$upstream_addr" $upstream_cache_status $request_uri`.
final class NginxFront: Sendable {
    static let executable = "/usr/sbin/nginx"
    static let template = PinholeExecutable.repositoryRoot.appendingPathComponent("deploy/nginx/pinhole-cluster.conf")

    /// The front's port on 127.0.0.1.
    let port: Int
    let process: SpawnedProcess
    private let prefix: TemporaryDirectory

    /// Starts nginx in front of `upstreams` (ports on 127.0.0.1, each `max_fails=1 fail_timeout=5s` as in
    /// `scripts/cluster.sh`) and returns once its `/health` answers.
    ///
    /// - Throws: when nginx is missing (`scripts/install-deps.sh` installs it), the template cannot be read, or
    ///   nginx does not answer within 10 s × the load factor.
    init(upstreams: [Int]) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw SpawnError("\(Self.executable) is missing: run scripts/install-deps.sh")
        }
        let prefix = try TemporaryDirectory(prefix: "pinhole-nginx")
        // nginx's workers run as `nobody` when the tests run as root: they write its cache and temporary files.
        chmod(prefix.path, 0o755)
        let port = try LoopbackPort.free()
        let path = prefix.path
        try await WorkerThreadPool.io.run {
            let servers = upstreams.map { "    server 127.0.0.1:\($0) max_fails=1 fail_timeout=5s;" }
            let front = try String(contentsOf: Self.template, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }
                .joined(separator: "\n")
                .replacingOccurrences(of: "@LISTEN@", with: "127.0.0.1:\(port)")
                .replacingOccurrences(of: "@UPSTREAM_SERVERS@", with: servers.joined(separator: "\n"))
                .replacingOccurrences(of: "@CACHE_PATH@", with: "\(path)/proxy-cache")
                .replacingOccurrences(of: "@ACCESS_LOG@", with: "\(path)/front.log")
            try front.write(toFile: "\(path)/front.conf", atomically: true, encoding: .utf8)
        }
        // The main configuration around the front's server block, as scripts/cluster.sh writes it.
        let main = try await SpawnedProcess.run(
            [
                "bash", "-c", ". scripts/serve-lib.sh && nginx_main_conf \"$1\" \"$2\"", "nginx", path,
                "\(path)/front.conf",
            ],
            in: PinholeExecutable.repositoryRoot.path)
        guard main.status == 0 else { throw SpawnError("nginx_main_conf (scripts/serve-lib.sh): \(main.stderr)") }
        try await WorkerThreadPool.io.run {
            try main.stdout.write(toFile: "\(path)/nginx.conf", atomically: true, encoding: .utf8)
        }
        self.prefix = prefix
        self.port = port
        process = try SpawnedProcess([
            Self.executable, "-p", path + "/", "-c", "\(path)/nginx.conf", "-e", "\(path)/error.log",
        ])
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let health = URL(string: "http://127.0.0.1:\(port)/health")!
        let answers = await eventually(every: .milliseconds(50)) {
            let status = try? await (session.data(from: health).1 as? HTTPURLResponse)?.statusCode
            return status == 200
        }
        guard answers else {
            await stop()
            throw SpawnError("nginx did not answer on port \(port): \(await errorLog())")
        }
    }

    /// Stops nginx: SIGTERM (the master ends its workers; SIGKILL would leave them running), SIGKILL after 10 s
    /// (``SpawnedProcess/waitForExit(timeout:)``).
    /// Its directory goes too: a test's deferred stop may outlive the test, and the value with it.
    func stop() async {
        process.kill(SIGTERM)
        _ = try? await process.waitForExit(timeout: .seconds(10))
        let prefix = self.prefix
        try? await WorkerThreadPool.io.run { prefix.remove() }
    }

    /// The access log's lines so far (nginx writes a line once the answer is sent).
    func accessLog() async -> [String] {
        let path = prefix.file("front.log")
        let text = try? await WorkerThreadPool.io.run { try String(contentsOfFile: path, encoding: .utf8) }
        return (text ?? "").split(separator: "\n").map(String.init)
    }

    private func errorLog() async -> String {
        let path = prefix.file("error.log")
        return (try? await WorkerThreadPool.io.run { try String(contentsOfFile: path, encoding: .utf8) }) ?? ""
    }
}
