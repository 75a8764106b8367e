import CMicroHTTPD
import CPinholeServer
import Foundation
import PinholeShared

/// An HTTP/1.1 server on libmicrohttpd: keep-alive, bounded heads, idle timeouts, and requests that wait for
/// the pipeline without holding a thread (the connection is suspended while ``HTTPResponding/response(to:)``
/// runs in a task, and resumed with its answer).
///
/// libmicrohttpd's polling threads (``Settings/threads``) parse requests, call the responder's
/// ``HTTPResponding/immediateResponse(to:)`` and send answers; nothing else runs on them. Stop the daemon with
/// ``stop()``, which first waits for every suspended request to be answered (libmicrohttpd must not be stopped
/// with a connection suspended).
public final class HTTPDaemon: Sendable {
    /// How the daemon listens and what it bounds.
    public struct Settings: Sendable {
        /// A numeric IPv4 or IPv6 address; `127.0.0.1` by default.
        public var host = "127.0.0.1"
        /// The TCP port; 0 (the default) lets the kernel choose (read ``HTTPDaemon/port``).
        public var port = 0
        /// libmicrohttpd's polling threads; 2 by default.
        public var threads = 2
        /// The most connections open at once; 1,024 by default.
        public var connectionLimit = 1024
        /// The most connections open at once from one client address, so that one client holding connections
        /// open (slowloris) cannot take them all; 256 by default (0: no limit of its own). A request on a connection
        /// beyond it is answered 503 (`too_many_connections`, `Retry-After: 1`) and its connection closed; beyond
        /// twice as many, libmicrohttpd closes a new connection at once, without an answer.
        public var connectionLimitPerAddress = 256
        /// Seconds a connection may stay idle (kept alive, or a client that stopped sending) before it is closed;
        /// 30 by default.
        public var idleTimeoutSeconds = 30
        /// Bytes per connection for the request line and headers; 16,384 by default. A longer head is answered
        /// by libmicrohttpd with 414 (target) or 431 (headers).
        public var connectionMemoryLimit = 16_384

        public init() {}
    }

    /// Why a daemon did not start.
    public struct StartError: Error, CustomStringConvertible {
        /// `errno` from libmicrohttpd (`EADDRINUSE`, `EINVAL` for a host that is not a numeric address).
        public let code: Int32
        /// The address asked for.
        public let address: String

        public var description: String { "cannot listen on \(address): \(String(cString: strerror(code)))" }
    }

    /// The port the daemon listens on.
    public let port: Int
    private let daemon: DaemonPointer
    private let context: DaemonContext
    private let retainedContext: Unmanaged<DaemonContext>
    /// The stop under way or done: a second ``stop(grace:)`` waits for it (libmicrohttpd's stop frees the daemon).
    private let stopping = Locked<Task<Void, Never>?>(nil)

    /// Starts listening at once.
    ///
    /// - Throws: ``StartError`` when the address is not numeric or cannot be bound.
    public init(settings: Settings, responder: any HTTPResponding) throws {
        let answeredLimit = max(0, settings.connectionLimitPerAddress)
        let context = DaemonContext(responder: responder, answeredLimitPerAddress: answeredLimit)
        let retained = Unmanaged.passRetained(context)
        var cSettings = CPinholeServer_settings()
        cSettings.port = UInt16(clamping: settings.port)
        cSettings.threads = UInt32(clamping: max(1, settings.threads))
        cSettings.connection_limit = UInt32(clamping: settings.connectionLimit)
        cSettings.per_address_connection_limit = UInt32(
            clamping: answeredLimit.multipliedReportingOverflow(by: 2).partialValue)
        cSettings.idle_timeout_seconds = UInt32(clamping: settings.idleTimeoutSeconds)
        cSettings.connection_memory_limit = max(4096, settings.connectionMemoryLimit)
        let started = settings.host.withCString { host in
            cSettings.host = host
            return CPinholeServer_start(
                &cSettings, HTTPDaemon.openRequest, HTTPDaemon.handleRequest, HTTPDaemon.closeRequest,
                HTTPDaemon.connectionChanged, retained.toOpaque())
        }
        guard let started else {
            let code = errno
            retained.release()
            throw StartError(code: code, address: "\(settings.host):\(settings.port)")
        }
        daemon = DaemonPointer(pointer: started)
        port = Int(CPinholeServer_port(started))
        self.context = context
        retainedContext = retained
    }

    /// Requests whose head has been read and that are not done yet (open or being answered).
    public var openRequestCount: Int { context.open.count }

    /// Connections open from one client address (numeric, as libmicrohttpd reports it: `127.0.0.1`), counted when
    /// libmicrohttpd accepts them and until it closes them.
    public func connectionCount(from address: String) -> Int { context.connectionCount(from: address) }

    /// Requests suspended while their answer is computed.
    public var suspendedRequestCount: Int { context.suspended.count }

    /// Whether ``stop(grace:)`` was called: from then on a request that would be suspended is answered 503.
    public var isStopping: Bool { context.refusesSuspensions }

    /// Waits until no request is suspended (a request that would be suspended from now on is answered 503 at
    /// once), then up to `grace` for every answer to be sent (a client that does not
    /// read is not waited for longer), then stops listening and closes every connection (on a thread of its own:
    /// libmicrohttpd joins its polling threads). A later call, from any task, waits for the first one's end and
    /// does nothing more; the stop runs to its end even when the calling task is cancelled.
    ///
    /// - Parameter grace: how long answers already made may take to reach their clients; 5 s by default.
    public func stop(grace: Duration = .seconds(5)) async {
        // At once, in the caller's task: from here on no request is suspended (the stop below may start later).
        context.refuseSuspensions()
        let stop = stopping.withLock { stopping in
            if let stopping { return stopping }
            let stop = Task { await stopOnce(grace: grace) }
            stopping = stop
            return stop
        }
        await stop.value
    }

    /// The one stop: after it the daemon pointer and the retained context are gone, so it must never run twice.
    private func stopOnce(grace: Duration) async {
        await context.stopSuspending()
        let open = context.open
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await open.waitUntilZero() }
            group.addTask { try? await Task.sleep(for: grace) }
            await group.next()
            group.cancelAll()
        }
        let daemon = self.daemon
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                MHD_stop_daemon(daemon.pointer)
                continuation.resume()
            }
        }
        retainedContext.release()
    }
}

/// A libmicrohttpd pointer handed between threads.
///
/// `@unchecked Sendable`: the daemon pointer is used by ``HTTPDaemon`` only (its polling threads are
/// libmicrohttpd's own); a connection pointer is used off its polling thread only while the connection is
/// suspended, and only for `MHD_resume_connection`, which libmicrohttpd documents as safe from any thread at any
/// time; the connection cannot be closed while suspended, and the daemon is never stopped while one is.
struct DaemonPointer: @unchecked Sendable {
    let pointer: OpaquePointer
}
