import Foundation
import Glibc

/// A joinable POSIX thread of the server's own, so the server never runs on Swift's cooperative pool and
/// ``PinholeTestServer/stop()`` can wait for every thread to end (`Foundation.Thread` cannot be joined).
struct ServerThread: Sendable {
    let handle: pthread_t

    /// Carries the closure into the new thread (retained by `spawn`, released by the thread).
    private final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Stack size of each thread in bytes; the handlers need little and ~300 threads may exist at once.
    private static let stackSize = 1 << 20

    /// Starts a thread running `body`; returns the error number when the system refuses (e.g. `EAGAIN`).
    static func spawn(name: String, _ body: @escaping @Sendable () -> Void) -> Result<ServerThread, SystemError> {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let start = Unmanaged.passRetained(Start(name: name, body: body))
        var handle = pthread_t()
        let result = pthread_create(
            &handle, &attributes,
            { context in
                guard let context else { return nil }
                let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
                Thread.current.name = String(start.name.prefix(15))  // shows in /proc/self/task/*/comm
                start.body()
                return nil
            }, start.toOpaque())
        guard result == 0 else {
            start.release()
            return .failure(SystemError(operation: "pthread_create", code: result))
        }
        return .success(ServerThread(handle: handle))
    }

    /// Whether this is the calling thread (a thread cannot join itself).
    var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }

    /// Lets the thread end on its own (no `pthread_join` will follow).
    func detach() {
        pthread_detach(handle)
    }

    /// Waits for the thread to end; a thread asked to join itself detaches instead.
    func join() {
        if isCurrent {
            pthread_detach(handle)
        } else {
            pthread_join(handle, nil)
        }
    }
}

/// A failed system call: the call's name and its `errno`.
struct SystemError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    var description: String { "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))" }
}
