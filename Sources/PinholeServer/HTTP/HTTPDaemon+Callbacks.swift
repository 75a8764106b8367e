import CMicroHTTPD
import CPinholeServer
import Foundation
import PinholeShared

/// libmicrohttpd's four callbacks, on its polling threads: open a request at its target, answer it (at once or
/// by suspending the connection until a task has the answer), release it when it is done; count connections per
/// client address.
extension HTTPDaemon {
    static let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, socketContext, notice in
        guard let context, let connection, let socketContext else { return }
        let daemon = Unmanaged<DaemonContext>.fromOpaque(context).takeUnretainedValue()
        if notice == .CONNECTION_NOTIFY_STARTED {
            let address = clientAddress(of: connection)
            let isOverLimit = daemon.connectionOpened(from: address)
            socketContext.pointee = Unmanaged.passRetained(
                ConnectionContext(address: address, isOverLimit: isOverLimit)
            )
            .toOpaque()
        } else if let opened = socketContext.pointee {
            socketContext.pointee = nil
            daemon.connectionClosed(from: Unmanaged<ConnectionContext>.fromOpaque(opened).takeRetainedValue().address)
        }
    }

    static let openRequest: CPinholeServer_target_callback = { context, target, _ in
        guard let context, let target else { return nil }
        let daemon = Unmanaged<DaemonContext>.fromOpaque(context).takeUnretainedValue()
        daemon.open.increment()
        return Unmanaged.passRetained(RequestContext(target: String(cString: target))).toOpaque()
    }

    static let handleRequest: MHD_AccessHandlerCallback = {
        context, connection, _, method, _, _, uploadSize, requestSlot in
        guard let context, let connection, let slot = requestSlot?.pointee else { return MHD_Result.NO }
        // A body is never read: swallow it. The answer is queued only once the whole request has been read (the
        // call with no upload data after the first): a response queued earlier makes libmicrohttpd close the
        // connection, as it cannot know where the next request starts.
        if let uploadSize, uploadSize.pointee != 0 {
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        let daemon = Unmanaged<DaemonContext>.fromOpaque(context).takeUnretainedValue()
        let request = Unmanaged<RequestContext>.fromOpaque(slot).takeUnretainedValue()
        enum Step {
            case start(ServerRequest)
            case send(ServerResponse)
            case wait
        }
        let step = request.state.withLock { state -> Step in
            switch state.phase {
            case .reading:
                state.phase = .headersRead
                state.request.method = method.map { String(cString: $0) } ?? ""
                state.request.headers = headers(of: connection)
                state.request.clientAddress = clientAddress(of: connection)
                state.request.receivedAt = .now
                return .wait
            case .headersRead:
                return .start(state.request)
            case .waiting:
                guard let pending = state.pending else { return .wait }
                state.phase = .answered
                state.sent = pending
                return .send(pending)
            case .answered:
                return .wait
            }
        }
        switch step {
        case .wait:
            return MHD_Result.YES
        case .send(let response):
            return queue(response, on: connection)
        case .start(let serverRequest):
            if let opened = CPinholeServer_socket_context(connection),
                Unmanaged<ConnectionContext>.fromOpaque(opened).takeUnretainedValue().isOverLimit
            {
                request.state.withLock {
                    $0.phase = .answered
                    $0.sent = tooManyConnectionsResponse
                }
                return queue(tooManyConnectionsResponse, on: connection)
            }
            if let response = daemon.responder.immediateResponse(to: serverRequest) {
                request.state.withLock {
                    $0.phase = .answered
                    $0.sent = response
                }
                return queue(response, on: connection)
            }
            // Suspend before the task exists, so that its resume always follows the suspend; never once the daemon
            // is stopping (libmicrohttpd must not be stopped with a connection suspended).
            guard daemon.suspending() else {
                request.state.withLock {
                    $0.phase = .answered
                    $0.sent = stoppingResponse
                }
                return queue(stoppingResponse, on: connection)
            }
            request.state.withLock { $0.phase = .waiting }
            MHD_suspend_connection(connection)
            let suspended = DaemonPointer(pointer: connection)
            Task.detached {
                let response = await daemon.responder.response(to: serverRequest)
                request.state.withLock { $0.pending = response }
                MHD_resume_connection(suspended.pointer)
                daemon.suspended.decrement()
            }
            return MHD_Result.YES
        }
    }

    static let closeRequest: MHD_RequestCompletedCallback = { context, _, requestSlot, termination in
        guard let context, let requestSlot, let slot = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        let daemon = Unmanaged<DaemonContext>.fromOpaque(context).takeUnretainedValue()
        let request = Unmanaged<RequestContext>.fromOpaque(slot).takeRetainedValue()
        let (serverRequest, sent) = request.state.withLock { ($0.request, $0.sent) }
        daemon.responder.completed(
            serverRequest, response: sent, completedNormally: termination == .REQUEST_TERMINATED_COMPLETED_OK)
        daemon.open.decrement()
    }

    /// The answer to a request that would wait while the daemon stops (made when needed: a stored `static let`
    /// holding `Data` is reported by LeakSanitizer as a leak at exit).
    static var stoppingResponse: ServerResponse {
        ServerResponse(
            status: 503, headers: [("Content-Type", "application/json"), ("Connection", "close")],
            body: Data(#"{"error":{"code":"draining","message":"the server is stopping"}}"#.utf8),
            errorCode: "draining")
    }

    /// The answer on a connection beyond its address's limit (``HTTPDaemon/Settings/connectionLimitPerAddress``).
    static var tooManyConnectionsResponse: ServerResponse {
        ServerResponse(
            status: 503,
            headers: [("Content-Type", "application/json"), ("Retry-After", "1"), ("Connection", "close")],
            body: Data(
                #"{"error":{"code":"too_many_connections","message":"too many connections from one address"}}"#.utf8),
            errorCode: "too_many_connections")
    }

    /// Queues `response` (libmicrohttpd copies the body and sends it without a `HEAD`'s body).
    static func queue(_ response: ServerResponse, on connection: OpaquePointer) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else { return MHD_Result.NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(made, name, value)
        }
        return MHD_queue_response(connection, UInt32(clamping: response.status), made)
    }

    /// The request headers a responder reads (``ServerRequest/readHeaderNames``); libmicrohttpd matches names
    /// without regard to case.
    static func headers(of connection: OpaquePointer) -> [String: String] {
        var headers: [String: String] = [:]
        for name in ServerRequest.readHeaderNames {
            if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) {
                headers[name] = String(cString: value)
            }
        }
        return headers
    }

    static func clientAddress(of connection: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard CPinholeServer_client_address(connection, &buffer, buffer.count) == 0 else { return "-" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
