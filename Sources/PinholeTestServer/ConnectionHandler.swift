import Foundation

/// Serves one connection on its own thread: reads request heads, answers them by route, keeps the connection
/// alive or closes it, and reports every request's fate to ``ServerStorage``.
struct ConnectionHandler {
    let storage: ServerStorage
    let connection: ClientConnection

    /// Request bodies (allowed but ignored on GET/HEAD) up to this many bytes are read and dropped; longer → 413.
    private static let maxRequestBody = 64 * 1024

    /// How the connection ends after a response.
    private enum Next {
        case keepAlive
        case closeGracefully
        case closeWithReset
        case closeNow
    }

    func run() {
        var next = Next.keepAlive
        while next == .keepAlive {
            next = serveOneRequest()
        }
        switch next {
        case .keepAlive, .closeNow: connection.closeNow()
        case .closeGracefully: connection.closeGracefully()
        case .closeWithReset: connection.closeWithReset()
        }
    }

    private func serveOneRequest() -> Next {
        // 1. Read a full head (and any small body).
        var parsed: HTTPRequestParser.Head
        readLoop: while true {
            switch HTTPRequestParser.parse(connection.inbound) {
            case .head(let head):
                parsed = head
                break readLoop
            case .reject(let status):
                return sendAndClose(ResponseHeadBuilder.plain(status: status, close: true))
            case .needMoreData:
                if connection.receive() != .done { return .closeNow }
            }
        }
        guard parsed.contentLength <= Self.maxRequestBody else {
            return sendAndClose(ResponseHeadBuilder.plain(status: 413, close: true))
        }
        while connection.inbound.count < parsed.headLength + parsed.contentLength {
            if connection.receive() != .done { return .closeNow }
        }
        connection.inbound.removeFirst(parsed.headLength + parsed.contentLength)

        // 2. Answer it.
        let request = parsed.request
        storage.requestStarted(request)
        let isHead = request.method == "HEAD"
        guard request.method == "GET" || isHead else {
            let bytes = ResponseHeadBuilder.plain(
                status: 405, close: !parsed.keepAlive, includeBody: !isHead, extra: ["Allow": "GET, HEAD"])
            return finish(send(bytes), keepAlive: parsed.keepAlive)
        }
        guard let route = storage.route(for: request) else {
            let bytes = ResponseHeadBuilder.plain(status: 404, close: !parsed.keepAlive, includeBody: !isHead)
            return finish(send(bytes), keepAlive: parsed.keepAlive)
        }
        return respond(to: request, with: route, clientKeepAlive: parsed.keepAlive)
    }

    private func respond(to request: Request, with route: Route, clientKeepAlive: Bool) -> Next {
        if route.latency > .zero, let failed = outcome(connection.wait(for: route.latency)) { return failed }
        if let gate = route.gate, let failed = outcome(connection.wait(until: gate)) { return failed }
        if route.behavior == .neverRespond { return holdUntilClientCloses() }

        let notModified =
            if let etag = route.etag, let condition = request.headers["if-none-match"] {
                ResponseHeadBuilder.ifNoneMatch(condition, matches: etag)
            } else {
                false
            }
        let status = notModified ? 304 : route.status
        let hasBody = ResponseHeadBuilder.allowsBody(status: status)
        let body = hasBody && request.method != "HEAD" ? route.body : .init()
        let routeWantsClose = route.headers.contains {
            $0.key.lowercased() == "connection" && $0.value.lowercased().contains("close")
        }
        let behaviorKeepsConnection: Bool
        switch route.behavior {
        case .normal, .trickle: behaviorKeepsConnection = true
        default: behaviorKeepsConnection = false
        }
        let keepAlive = clientKeepAlive && !routeWantsClose && behaviorKeepsConnection && route.declaresLength
        let head = ResponseHeadBuilder.encode(
            status: status, headers: route.headers, etag: route.etag,
            contentLength: hasBody && route.declaresLength ? route.body.count : nil, close: !keepAlive)
        // Counted before the head goes out: a client that holds its 304 must see it counted
        if notModified { storage.notModifiedAnswered() }

        switch route.behavior {
        case .normal, .neverRespond:
            return finish(send(head, body), keepAlive: keepAlive)
        case .truncate(let afterBytes):
            return partial(head, body, afterBytes) ?? endedByServer(.closeGracefully)
        case .reset(let afterBytes):
            return partial(head, body, afterBytes) ?? endedByServer(.closeWithReset)
        case .stall(let afterBytes):
            return partial(head, body, afterBytes) ?? holdUntilClientCloses()
        case .trickle(let chunkSize, let interval):
            if let failed = outcome(send(head)) { return failed }
            var offset = body.startIndex
            while offset < body.endIndex {
                let end = body.index(offset, offsetBy: max(1, chunkSize), limitedBy: body.endIndex) ?? body.endIndex
                if let failed = outcome(send(body[offset..<end])) { return failed }
                offset = end
                if offset < body.endIndex, let failed = outcome(connection.wait(for: interval)) { return failed }
            }
            return finish(.done, keepAlive: keepAlive)
        }
    }

    /// Sends the head and the first `afterBytes` body bytes; nil when sent, else how to end.
    private func partial(_ head: [UInt8], _ body: Data, _ afterBytes: Int) -> Next? {
        outcome(send(head, body.prefix(max(0, afterBytes))))
    }

    /// nil for `.done`; otherwise records the request's end and says how to close.
    private func outcome(_ result: ClientConnection.Outcome) -> Next? {
        switch result {
        case .done: nil
        case .peerClosed: aborted()
        case .stopping: endedByServer(.closeNow)
        }
    }

    private func holdUntilClientCloses() -> Next {
        switch connection.wait(for: nil) {
        case .peerClosed: aborted()
        case .done, .stopping: endedByServer(.closeNow)
        }
    }

    private func finish(_ result: ClientConnection.Outcome, keepAlive: Bool) -> Next {
        if let failed = outcome(result) { return failed }
        storage.requestEnded(.completed)
        return keepAlive ? .keepAlive : .closeGracefully
    }

    private func aborted() -> Next {
        storage.requestEnded(.aborted)
        return .closeNow
    }

    private func endedByServer(_ next: Next) -> Next {
        storage.requestEnded(.endedByServer)
        return next
    }

    /// Sends an error response for a malformed request (not counted as a request) and closes.
    private func sendAndClose(_ bytes: [UInt8]) -> Next {
        send(bytes) == .done ? .closeGracefully : .closeNow
    }

    /// Sends and adds what went out to the byte counter.
    private func send(_ bytes: some ContiguousBytes) -> ClientConnection.Outcome {
        let before = connection.bytesSent
        let result = connection.send(bytes)
        storage.addBytesSent(connection.bytesSent - before)
        return result
    }

    /// Sends a head and a body: one write for small bodies, two (without copying the body) for large ones.
    private func send(_ head: [UInt8], _ body: Data) -> ClientConnection.Outcome {
        if body.count <= 16 * 1024 {
            var bytes = head
            bytes.append(contentsOf: body)
            return send(bytes)
        }
        let result = send(head)
        return result == .done ? send(body) : result
    }
}
