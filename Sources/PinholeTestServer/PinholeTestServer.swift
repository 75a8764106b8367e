public import Foundation
import Glibc

/// A loopback HTTP/1.1 server with injected latency and faults, for tests, benchmarks and the demo.
///
/// It binds 127.0.0.1 on a port the system chooses and serves `GET` and `HEAD` with keep-alive
/// (`Content-Length` framing; `Connection: close` honoured). Responses come from exact-path ``Route``s or a
/// fallback handler; ``stats`` counts requests started, completed and aborted by the client.
///
/// ```swift
/// let server = try PinholeTestServer()
/// server.route("/a.jpg", .image(jpegData, latency: .milliseconds(250)))
/// server.route("/slow", Route(body: Data(count: 10_000), behavior: .trickle(bytes: 1000, every: .milliseconds(20))))
/// server.setHandler { request in request.path.hasPrefix("/img/") ? .image(jpegData) : nil }
///
/// let (data, _) = try await URLSession.shared.data(from: server.url("/a.jpg"))
/// #expect(server.requestCount(for: "/a.jpg") == 1)
/// #expect(server.stats.requestsCompleted == 1)
/// await server.shutDown()  // or `stop()` from synchronous code; a server released unstopped stops by itself
/// ```
///
/// The server runs on threads of its own (one accept thread, one thread per connection; POSIX sockets and
/// `poll`), never on Swift's cooperative pool, so it keeps answering while tests saturate that pool. Every wait
/// (latency, stall, trickle, idle keep-alive) is a `poll` on the socket, so a client that closes is seen at
/// once and its request counted in ``Stats/requestsAborted``. Writes never raise `SIGPIPE`.
///
/// Thread-safe: every method may be called from any thread or isolation while the server is serving.
public final class PinholeTestServer: Sendable {
    /// The TCP port on 127.0.0.1 the system assigned.
    public let port: Int
    private let storage: ServerStorage

    /// Binds 127.0.0.1 on a free port and starts accepting connections at once.
    ///
    /// - Throws: ``StartError`` when a socket, the bind or a thread cannot be created.
    public init() throws {
        let wake = try Self.start { () throws(SystemError) in try Socket.makeWakePipe() }
        let listener: (fd: Int32, port: Int)
        do {
            listener = try Self.start { () throws(SystemError) in try Socket.listenOnLoopback() }
        } catch {
            _ = Glibc.close(wake.read)
            _ = Glibc.close(wake.write)
            throw error
        }
        port = listener.port
        let storage = ServerStorage(listenerFD: listener.fd, wakeReadFD: wake.read, wakeWriteFD: wake.write)
        self.storage = storage
        switch ServerThread.spawn(name: "pinhole-srv-acc", { AcceptLoop(storage: storage).run() }) {
        case .success(let thread):
            storage.setAcceptThread(thread)
        case .failure(let error):
            storage.stop()
            throw StartError(operation: error.operation, code: error.code)
        }
    }

    /// Stops a server still running without blocking the releasing thread (often a thread of Swift's
    /// cooperative pool): the threads are joined on a thread of their own.
    deinit {
        storage.stopInBackground()
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { preconditionFailure("Invalid base URL") }
        return url
    }

    /// The URL of a path on this server, e.g. `url("/a.jpg?x=1")`; a missing leading `/` is added.
    /// Characters not allowed in a URL are percent-encoded.
    public func url(_ path: String) -> URL {
        let path = path.hasPrefix("/") ? path : "/" + path
        let base = "http://127.0.0.1:\(port)"
        if let url = URL(string: base + path) { return url }
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? ""
        guard let url = URL(string: base + escaped) else { preconditionFailure("Cannot make a URL of \(path)") }
        return url
    }

    /// Closes the listener and every connection and waits for the server's threads to end (a few
    /// milliseconds). Requests still waiting, stalled or trickling end without a response. Idempotent; also
    /// done by `deinit` (without blocking). Routes and the handler are released, which breaks cycles through
    /// them.
    ///
    /// - Note: Blocks the calling thread briefly while joining threads: from async code use ``shutDown()``. Do
    ///   not call it from a route handler (that thread cannot join itself; call it from the test or the
    ///   benchmark).
    public func stop() {
        storage.stop()
    }

    /// ``stop()`` for async code: the same steps and end state, but the server's threads are joined on a thread
    /// of their own while the calling task is suspended, so no thread of Swift's cooperative pool blocks.
    /// Returns when the server has stopped (its descriptors are closed and the port is free); a second call
    /// returns at once.
    public func shutDown() async {
        await storage.stopOffThread()
    }

    /// Sets (replaces) the route for an exact path, e.g. `/a.jpg`. A request matches a route registered with
    /// its full path and query (`/a.jpg?x=1`) first, then one with its path alone (the query ignored).
    /// Thread-safe; takes effect for requests whose head arrives afterwards.
    public func route(_ path: String, _ route: Route) {
        storage.setRoute(route, for: path)
    }

    /// Removes the route for `path` (as given to ``route(_:_:)``); later requests fall back to the handler or 404.
    public func removeRoute(_ path: String) {
        storage.setRoute(nil, for: path)
    }

    /// Sets the fallback for requests with no exact route (e.g. `/img/17?v=3` in benchmarks); `nil` removes it.
    /// A handler that returns `nil` gets a 404. Called on a connection thread, never under the server's lock.
    /// A handler that captures the server keeps it alive until ``stop()`` (which releases the handler).
    public func setHandler(_ handler: (@Sendable (Request) -> Route?)?) {
        storage.setHandler(handler)
    }

    /// A snapshot of the counters.
    public var stats: Stats { storage.stats }

    /// Requests started (head read) for `path`; a query in `path` is ignored (`/a?x=1` counts as `/a`).
    public func requestCount(for path: String) -> Int {
        storage.requestCount(for: Self.pathWithoutQuery(path))
    }

    /// The most recent request started for `path` (query ignored), or nil.
    /// Requests in the order their heads were read (the most recent 10,000), for ordering assertions.
    public var requestLog: [Request] { storage.requestLog }

    public func lastRequest(for path: String) -> Request? {
        storage.lastRequest(for: Self.pathWithoutQuery(path))
    }

    /// Zeroes the counters (``Stats/openConnections`` keeps its live value) and forgets recorded requests.
    public func resetStats() {
        storage.resetStats()
    }

    /// Descriptors the server holds open (listener, wake pipe, connections); empty once stopped. For leak tests.
    package var openDescriptors: [Int32] { storage.openDescriptors }

    /// Why ``PinholeTestServer/init()`` failed: the system call and its `errno`.
    public struct StartError: Error, CustomStringConvertible {
        /// The failing call, e.g. `bind`.
        public let operation: String
        /// The `errno` value.
        public let code: Int32

        public var description: String { SystemError(operation: operation, code: code).description }
    }

    private static func start<T>(_ body: () throws(SystemError) -> T) throws(StartError) -> T {
        do {
            return try body()
        } catch {
            throw StartError(operation: error.operation, code: error.code)
        }
    }

    private static func pathWithoutQuery(_ path: String) -> String {
        path.firstIndex(of: "?").map { String(path[..<$0]) } ?? path
    }
}
