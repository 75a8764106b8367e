import Dispatch
import Foundation
import Pinhole
import PinholeServer
import PinholeShared
import PinholeVips

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a ``ThumbnailServer`` until SIGTERM or SIGINT, then drains it and stops the daemon.
struct ServeRunner {
    let configuration: ServerConfiguration

    func run() async -> Int32 {
        let stderr = FileHandle.standardError
        // Access-log lines are written on a queue of their own: a slow reader of stdout must not hold
        // libmicrohttpd's polling threads.
        let output = FileHandle.standardOutput
        let logQueue = DispatchQueue(label: "pinhole.serve.access-log")
        let server = ThumbnailServer(
            configuration: configuration, log: { line in logQueue.async { output.write(Data((line + "\n").utf8)) } },
            onDiagnostic: { line in stderr.write(Data("pinhole: \(line)\n".utf8)) })
        let daemon: HTTPDaemon
        do {
            daemon = try HTTPDaemon(settings: configuration.daemon, responder: server)
        } catch {
            stderr.write(Data("pinhole: \(error)\n".utf8))
            return 1
        }
        let unsigned = configuration.allowsUnsigned ? " (unsigned URLs allowed)" : ""
        let listening = "pinhole: serving on \(configuration.daemon.host):\(daemon.port)\(unsigned)\n"
        let signal = await Self.firstSignal { stderr.write(Data(listening.utf8)) }
        stderr.write(Data("pinhole: \(signal == SIGTERM ? "SIGTERM" : "SIGINT"): draining\n".utf8))
        await server.drain()
        await daemon.stop()
        await withCheckedContinuation { continuation in logQueue.async { continuation.resume() } }
        stderr.write(Data("pinhole: stopped\n".utf8))
        return 0
    }

    /// Waits for SIGTERM or SIGINT (delivered to dispatch sources, not the default handlers) and returns it;
    /// `ready` runs once the handlers are in place. A second signal, during the drain, exits at once with status
    /// 1 (the sources stay installed for the process's life).
    static func firstSignal(ready: () -> Void) async -> Int32 {
        let queue = DispatchQueue(label: "pinhole.serve.signals")
        let sources = [SIGTERM, SIGINT].map { number -> (Int32, any DispatchSourceSignal) in
            Glibc.signal(number, SIG_IGN)
            return (number, DispatchSource.makeSignalSource(signal: number, queue: queue))
        }
        let received = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let once = SignalLatch()
            for (number, source) in sources {
                source.setEventHandler {
                    guard once.fire() else {
                        FileHandle.standardError.write(Data("pinhole: second signal: exiting without draining\n".utf8))
                        exit(1)
                    }
                    continuation.resume(returning: number)
                }
                source.resume()
            }
            ready()
        }
        installedSignalSources.withLock { $0 = KeptSignalSources(sources: sources.map(\.1)) }
        return received
    }
}

/// The signal sources of ``ServeRunner/firstSignal(ready:)``, kept alive for the second signal.
private let installedSignalSources = Locked(KeptSignalSources(sources: []))

/// Signal sources held only to keep them alive (`DispatchSourceSignal` is not `Sendable` on Linux).
private struct KeptSignalSources: @unchecked Sendable {
    // Invariant: nothing reads or calls the sources once they are stored here (they were resumed before); the
    // value only holds references, and libdispatch's objects are thread-safe to retain and release anywhere.
    let sources: [any DispatchSourceSignal]
}

/// Lets the first of several signal handlers through.
private final class SignalLatch: Sendable {
    private let fired = Locked(false)

    /// `true` for the first caller only.
    func fire() -> Bool {
        fired.withLock { fired in
            defer { fired = true }
            return !fired
        }
    }
}
