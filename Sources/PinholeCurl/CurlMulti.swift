import CCurl
import CPinholeCurl
import Foundation
import Pinhole
import PinholeShared

/// One libcurl multi handle and the dedicated thread that drives it: every transfer of an ``HTTPDataLoader``.
///
/// Callers hand transfers over with ``add(_:)`` and take them back with ``remove(_:)`` (from any thread): both
/// queue a command under a lock and wake the thread with `curl_multi_wakeup`, the one multi call libcurl allows
/// from another thread. The thread alone calls everything else (https://curl.se/libcurl/c/threadsafe.html):
/// it applies the commands, runs `curl_multi_perform`, answers finished transfers (or starts their next redirect
/// hop on the same easy handle: out of the multi, pointed at the target, added again), and sleeps in
/// `curl_multi_poll` until a socket, a libcurl timer or a command wakes it.
///
/// Cancellation at any instant: a caller's cancel first ends its ``HTTPTransfer`` (so it is answered at once),
/// then queues the removal. The thread skips an addition whose transfer already ended and ignores a removal of
/// a transfer it does not hold, so whichever order the two commands arrive in, nothing outlives its caller.
final class CurlMulti: Sendable {
    private struct Commands {
        var additions: [HTTPTransfer] = []
        var removals: [ObjectIdentifier] = []
        /// Transfers added and not yet released by the thread.
        var active = 0
        var threadStarted = false
        var stopping = false
    }

    /// The `CURLM *`. Invariant that makes it shareable: other threads only pass it to `curl_multi_wakeup`
    /// (thread-safe by libcurl's documentation); every other call on it happens on the multi's thread, and
    /// `curl_multi_cleanup` in `deinit`, once that thread has ended (it holds this object while it runs).
    private struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private let handle: MultiHandle
    private let commands = Locked(Commands())

    init(maxConnectionsPerHost: Int) {
        precondition(Self.globalInit == CURLE_OK.rawValue, "curl_global_init failed (\(Self.globalInit))")
        guard let pointer = curl_multi_init() else { preconditionFailure("curl_multi_init failed (out of memory)") }
        handle = MultiHandle(pointer: pointer)
        CPinholeCurl_multi_setopt_long(pointer, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxConnectionsPerHost))
        CPinholeCurl_multi_setopt_long(pointer, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
    }

    deinit {
        curl_multi_cleanup(handle.pointer)
    }

    /// `curl_global_init`, once per process before any other libcurl call (thread-safe in libcurl 7.84 and
    /// later, and guarded by Swift's lazy `static let` anyway).
    private static let globalInit: UInt32 = curl_global_init(Int(CURL_GLOBAL_DEFAULT)).rawValue

    var activeTransferCount: Int { commands.withLock { $0.active } }

    /// Hands `transfer` to the thread (starting it on first use).
    func add(_ transfer: HTTPTransfer) {
        let startThread = commands.withLock { commands -> Bool in
            commands.additions.append(transfer)
            commands.active += 1
            defer { commands.threadStarted = true }
            return !commands.threadStarted
        }
        if startThread {
            // The thread holds this object until it ends, so the multi handle outlives every call on it.
            let thread = Thread { [self] in run() }
            thread.name = "pinhole-http"
            thread.start()
        } else {
            curl_multi_wakeup(handle.pointer)
        }
    }

    /// Asks the thread to remove `transfer` from libcurl now (closing its connection if it is mid-response).
    /// Harmless for a transfer that was never added or has already been released.
    func remove(_ transfer: HTTPTransfer) {
        let wake = commands.withLock { commands -> Bool in
            guard commands.threadStarted else { return false }
            commands.removals.append(ObjectIdentifier(transfer))
            return true
        }
        if wake { curl_multi_wakeup(handle.pointer) }
    }

    /// Stops the thread: transfers still held (their callers have left) are removed, and it ends.
    func shutdown() {
        let wake = commands.withLock { commands -> Bool in
            commands.stopping = true
            return commands.threadStarted
        }
        if wake { curl_multi_wakeup(handle.pointer) }
    }

    // MARK: - The thread

    private func run() {
        let multi = handle.pointer
        var running: [ObjectIdentifier: CurlTransfer] = [:]
        var byEasy: [UnsafeMutableRawPointer: ObjectIdentifier] = [:]
        func detach(_ id: ObjectIdentifier) -> CurlTransfer? {
            guard let transfer = running.removeValue(forKey: id) else { return nil }
            byEasy[transfer.easy] = nil
            curl_multi_remove_handle(multi, transfer.easy)
            return transfer
        }
        while true {
            let (additions, removals, stopping) = commands.withLock { commands in
                defer {
                    commands.additions = []
                    commands.removals = []
                }
                return (commands.additions, commands.removals, commands.stopping)
            }
            var released = 0
            for id in removals where detach(id) != nil { released += 1 }
            for transfer in additions {
                if let started = start(transfer, on: multi) {
                    running[ObjectIdentifier(transfer)] = started
                    byEasy[started.easy] = ObjectIdentifier(transfer)
                } else {
                    released += 1
                }
            }
            if stopping {
                for id in Array(running.keys) {
                    detach(id)?.transfer.finish(.failure(CancellationError()))
                    released += 1
                }
                release(released)
                return
            }
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            var left: Int32 = 0
            var hops: [(CurlTransfer, URL)] = []
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let id = byEasy[easy], let current = running[id]
                else { continue }
                let code = message.pointee.data.result  // read before the removal invalidates the message
                switch current.step(after: code) {
                case .finish(let result):
                    guard let done = detach(id) else { continue }
                    done.transfer.finish(result)
                    released += 1
                case .follow(let next):
                    // Out of the multi to be pointed at the next hop; added again below, after this loop.
                    curl_multi_remove_handle(multi, easy)
                    hops.append((current, next))
                }
            }
            for (current, next) in hops {
                current.beginHop(to: next)
                // A caller that left meanwhile is not followed further (its removal command then finds nothing).
                if !current.transfer.isFinished {
                    let code = curl_multi_add_handle(multi, current.easy)
                    if code == CURLM_OK { continue }
                    let reason = String(cString: curl_multi_strerror(code))
                    current.transfer.finish(.failure(PinholeError(.networkFailure, "\(current.url): \(reason)")))
                }
                _ = detach(ObjectIdentifier(current.transfer))
                released += 1
            }
            release(released)
            // Sleeps until a socket is ready, libcurl's next timer (it shortens the wait), or a wake-up.
            curl_multi_poll(multi, nil, 0, running.isEmpty ? 30_000 : 1_000, nil)
        }
    }

    /// Adds `transfer` to libcurl, or answers it (`nil`) when it already ended or cannot start.
    private func start(_ transfer: HTTPTransfer, on multi: UnsafeMutableRawPointer) -> CurlTransfer? {
        guard !transfer.isFinished else { return nil }
        guard let curlTransfer = CurlTransfer(transfer) else {
            let error = PinholeError(.networkFailure, "\(transfer.options.url): libcurl is out of memory")
            transfer.finish(.failure(error))
            return nil
        }
        let code = curl_multi_add_handle(multi, curlTransfer.easy)
        guard code == CURLM_OK else {
            let reason = String(cString: curl_multi_strerror(code))
            transfer.finish(.failure(PinholeError(.networkFailure, "\(transfer.options.url): \(reason)")))
            return nil
        }
        return curlTransfer
    }

    private func release(_ count: Int) {
        guard count > 0 else { return }
        commands.withLock { $0.active -= count }
    }
}
