import Glibc
import PinholeShared
import Synchronization

/// The state a ``PinholeTestServer`` shares between its caller and its threads, behind one `Locked`.
///
/// Lock discipline: no I/O, no user closure and no `pthread_join` while locked; take what is needed, unlock,
/// then act. The descriptors are immutable here: the listener and the wake pipe are closed by `stop()` only
/// after every thread has ended; each connection descriptor is owned and closed by its own thread.
final class ServerStorage: Sendable {
    let listenerFD: Int32
    let wakeReadFD: Int32
    let wakeWriteFD: Int32

    private struct Connection {
        var fd: Int32
        var thread: ServerThread?
    }

    private enum Lifecycle { case running, stopping, stopped }

    private struct State {
        var lifecycle = Lifecycle.running
        var routes: [String: Route] = [:]
        var handler: (@Sendable (Request) -> Route?)?
        var stats = Stats()
        var requestCounts: [String: Int] = [:]
        var lastRequests: [String: Request] = [:]
        /// Requests in arrival order, the most recent 10,000.
        var requestLog: [Request] = []
        var acceptThread: ServerThread?
        var connections: [Int: Connection] = [:]
        var nextConnectionID = 0
        /// Connection threads that have ended (or are about to return) and still need a `pthread_join`.
        var endedThreads: [ServerThread] = []
    }

    private let state = Locked(State())

    init(listenerFD: Int32, wakeReadFD: Int32, wakeWriteFD: Int32) {
        self.listenerFD = listenerFD
        self.wakeReadFD = wakeReadFD
        self.wakeWriteFD = wakeWriteFD
    }

    // MARK: Routes

    func setRoute(_ route: Route?, for target: String) {
        state.withLock { $0.routes[target] = route }
    }

    func setHandler(_ handler: (@Sendable (Request) -> Route?)?) {
        state.withLock { $0.handler = handler }
    }

    /// The route for a request: exact path+query, then exact path, then the handler (called unlocked).
    func route(for request: Request) -> Route? {
        let (route, handler) = state.withLock { state -> (Route?, (@Sendable (Request) -> Route?)?) in
            if request.query != nil, let route = state.routes[request.target] { return (route, nil) }
            if let route = state.routes[request.path] { return (route, nil) }
            return (nil, state.handler)
        }
        return route ?? handler?(request)
    }

    // MARK: Stats

    var stats: Stats { state.withLock { $0.stats } }

    func requestCount(for path: String) -> Int { state.withLock { $0.requestCounts[path] ?? 0 } }

    func lastRequest(for path: String) -> Request? { state.withLock { $0.lastRequests[path] } }

    var requestLog: [Request] { state.withLock { $0.requestLog } }

    /// Zeroes the counters and forgets requests; ``Stats/openConnections`` keeps its live value.
    func resetStats() {
        state.withLock { state in
            state.stats = Stats(openConnections: state.stats.openConnections)
            state.requestCounts = [:]
            state.lastRequests = [:]
            state.requestLog = []
        }
    }

    func requestStarted(_ request: Request) {
        state.withLock { state in
            state.stats.requestsStarted += 1
            state.requestCounts[request.path, default: 0] += 1
            state.lastRequests[request.path] = request
            if state.requestLog.count >= 10_000 { state.requestLog.removeFirst(state.requestLog.count - 9_999) }
            state.requestLog.append(request)
        }
    }

    enum RequestEnd { case completed, aborted, endedByServer }

    /// Counts a 304 when it is decided, before its head is written (see ``Stats/notModified``).
    func notModifiedAnswered() {
        state.withLock { $0.stats.notModified += 1 }
    }

    func requestEnded(_ end: RequestEnd) {
        state.withLock { state in
            switch end {
            case .completed: state.stats.requestsCompleted += 1
            case .aborted: state.stats.requestsAborted += 1
            case .endedByServer: break
            }
        }
    }

    func addBytesSent(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.stats.bytesSent += count }
    }

    // MARK: Threads and lifecycle

    func setAcceptThread(_ thread: ServerThread) {
        state.withLock { $0.acceptThread = thread }
    }

    /// Registers an accepted socket and starts its thread; closes the socket when stopping or out of threads.
    /// Spawning happens under the lock so the thread is recorded before it can end.
    func startConnection(fd: Int32, body: @escaping @Sendable (_ id: Int) -> Void) {
        let started = state.withLock { state -> Bool in
            guard state.lifecycle == .running else { return false }
            let id = state.nextConnectionID
            guard case .success(let thread) = ServerThread.spawn(name: "pinhole-srv-\(id)", { body(id) }) else {
                return false
            }
            state.nextConnectionID += 1
            state.connections[id] = Connection(fd: fd, thread: thread)
            state.stats.connectionsAccepted += 1
            state.stats.openConnections += 1
            return true
        }
        if !started { close(fd) }
    }

    /// Called by a connection thread as its last step, after it closed its socket.
    func connectionEnded(id: Int) {
        state.withLock { state in
            guard let connection = state.connections.removeValue(forKey: id) else { return }
            state.stats.openConnections -= 1
            if let thread = connection.thread { state.endedThreads.append(thread) }
        }
    }

    /// Threads of ended connections, to join (they are returning or gone).
    func takeEndedThreads() -> [ServerThread] {
        state.withLock { state in
            defer { state.endedThreads = [] }
            return state.endedThreads
        }
    }

    var isRunning: Bool { state.withLock { $0.lifecycle == .running } }

    /// Stops once: wakes every thread, joins them, then closes the listener and the wake pipe (blocks the
    /// calling thread until then). A second or concurrent call returns at once.
    func stop() {
        guard beginStopping() else { return }
        finishStopping()
    }

    /// Stops like ``stop()``, joining the threads on a thread of their own; the caller's task is suspended, its
    /// thread free. Returns when the server has stopped (at once for a second call).
    func stopOffThread() async {
        guard beginStopping() else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            stopOnThreadOfItsOwn { continuation.resume() }
        }
    }

    /// Starts stopping and returns at once; the joins and closes happen on a thread of their own (``deinit``).
    func stopInBackground() {
        guard beginStopping() else { return }
        stopOnThreadOfItsOwn {}
    }

    private func stopOnThreadOfItsOwn(then done: @escaping @Sendable () -> Void) {
        let spawned = ServerThread.spawn(name: "pinhole-srv-stop") { [self] in
            finishStopping()
            done()
        }
        switch spawned {
        case .success(let thread): thread.detach()
        case .failure:  // out of threads: stop on this one rather than not at all
            finishStopping()
            done()
        }
    }

    /// Marks the server stopping and wakes every thread; `false` when it was already stopping or stopped.
    private func beginStopping() -> Bool {
        let shouldStop = state.withLock { state -> Bool in
            guard state.lifecycle == .running else { return false }
            state.lifecycle = .stopping
            state.handler = nil  // drops closures that may capture the server
            state.routes = [:]
            return true
        }
        if shouldStop { close(wakeWriteFD) }  // every poll on the read end now reports POLLHUP
        return shouldStop
    }

    /// Joins every thread, then closes the listener and the wake pipe (after ``beginStopping()``).
    private func finishStopping() {
        state.withLock { $0.acceptThread }?.join()
        // The accept thread has ended, so no connection is registered any more.
        let threads = state.withLock { state in
            state.endedThreads + state.connections.values.compactMap(\.thread)
        }
        for thread in threads { thread.join() }
        close(listenerFD)
        close(wakeReadFD)
        state.withLock { state in
            state.lifecycle = .stopped
            state.connections = [:]
            state.endedThreads = []
            state.acceptThread = nil
        }
    }

    /// Descriptors the server holds open now (listener, wake pipe, connections), for leak tests.
    var openDescriptors: [Int32] {
        state.withLock { state in
            guard state.lifecycle != .stopped else { return [] }
            return [listenerFD, wakeReadFD, wakeWriteFD] + state.connections.values.map(\.fd)
        }
    }
}
