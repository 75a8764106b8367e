import Foundation
import Glibc

/// Blocking-style I/O on one accepted, non-blocking socket, owned by its connection thread.
///
/// Every wait is a `poll` on the socket *and* the server's wake pipe, so a client that closes is noticed at
/// once (never a sleep), and ``PinholeTestServer/stop()`` ends every wait.
final class ClientConnection {
    enum Outcome: Equatable {
        /// The read, write or wait finished.
        case done
        /// The client closed, half-closed or reset the connection.
        case peerClosed
        /// The server is stopping.
        case stopping
    }

    let fd: Int32
    private let wakeFD: Int32
    /// Bytes received and not yet consumed (the next request head, pipelined requests).
    var inbound: [UInt8] = []
    /// Bytes handed to the kernel so far.
    private(set) var bytesSent = 0

    /// Received bytes kept while waiting; more is read and dropped (a client flooding a stalled response).
    private static let inboundCap = 1 << 20
    private static let readChunk = 64 * 1024

    init(fd: Int32, wakeFD: Int32) {
        self.fd = fd
        self.wakeFD = wakeFD
    }

    /// Waits until at least one more byte arrives and appends what is available to ``inbound``.
    func receive() -> Outcome {
        while true {
            switch receiveAvailable() {
            case .some(true): return .done
            case .some(false): return .peerClosed
            case .none:
                let (revents, stopping) = Socket.poll(fd, events: Int16(POLLIN), wakeFD: wakeFD, timeout: -1)
                if stopping { return .stopping }
                _ = revents  // POLLIN, POLLHUP or POLLERR: the next recv tells which
            }
        }
    }

    /// Waits `duration` (nil: until the client closes or the server stops) while watching the socket.
    /// Returns `.done` when the time has passed; a close or half-close by the client ends the wait early.
    func wait(for duration: Duration?) -> Outcome {
        let clock = ContinuousClock()
        let deadline = duration.map { clock.now + $0 }
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let remaining = clock.now.duration(to: deadline)
                if remaining <= .zero { return .done }
                timeout = Self.milliseconds(roundingUp: remaining)
            }
            let events = Int16(POLLIN) | Socket.pollReadHangUp
            let (revents, stopping) = Socket.poll(fd, events: events, wakeFD: wakeFD, timeout: timeout)
            if stopping { return .stopping }
            if revents & (Int16(POLLHUP) | Int16(POLLERR) | Socket.pollReadHangUp) != 0 { return .peerClosed }
            if revents & Int16(POLLIN) != 0, receiveAvailable() == false { return .peerClosed }
        }
    }

    /// Waits until `gate` is open, watching the socket as ``wait(for:)`` does (the gate is checked every 10 ms).
    func wait(until gate: ResponseGate) -> Outcome {
        while !gate.isOpen {
            let outcome = wait(for: .milliseconds(10))
            if outcome != .done { return outcome }
        }
        return .done
    }

    /// Writes all of `bytes` (no copy), waiting for buffer space as needed.
    func send(_ bytes: some ContiguousBytes) -> Outcome {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let base = buffer.baseAddress.map { $0 + offset }
                let written = Glibc.send(fd, base, buffer.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                if written > 0 {
                    offset += written
                    bytesSent += written
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    let (_, stopping) = Socket.poll(fd, events: Int16(POLLOUT), wakeFD: wakeFD, timeout: -1)
                    if stopping { return .stopping }
                default:
                    return .peerClosed  // EPIPE, ECONNRESET …
                }
            }
            return .done
        }
    }

    /// Closes after a response the client should read in full: FIN first, then drain what the client still
    /// sends (up to `lingerTime`) so a reset does not destroy the response in flight.
    func closeGracefully(lingerTime: Duration = .milliseconds(500)) {
        shutdown(fd, Int32(SHUT_WR))
        let clock = ContinuousClock()
        let deadline = clock.now + lingerTime
        while clock.now < deadline {
            let timeout = Self.milliseconds(roundingUp: clock.now.duration(to: deadline))
            let (revents, stopping) = Socket.poll(fd, events: Int16(POLLIN), wakeFD: wakeFD, timeout: timeout)
            if stopping || revents == 0 { break }
            inbound.removeAll(keepingCapacity: true)
            if receiveAvailable() != true { break }
        }
        close(fd)
    }

    /// Closes with RST (`SO_LINGER` 0).
    func closeWithReset() {
        Socket.setResetOnClose(fd)
        close(fd)
    }

    /// Closes at once.
    func closeNow() {
        close(fd)
    }

    /// Reads what is available without waiting: true when bytes arrived, false when the client closed or reset,
    /// nil when nothing is pending.
    private func receiveAvailable() -> Bool? {
        var chunk = [UInt8](repeating: 0, count: Self.readChunk)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                if inbound.count < Self.inboundCap { inbound.append(contentsOf: chunk[..<count]) }
                return true
            }
            if count == 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: return false
            }
        }
    }

    private static func milliseconds(roundingUp duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
