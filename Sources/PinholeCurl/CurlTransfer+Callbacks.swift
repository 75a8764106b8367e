import CCurl
import CPinholeCurl
import Foundation
import Pinhole

/// libcurl's callbacks into a ``CurlTransfer`` (its user data) and what each does. They run on the loader's
/// thread inside `curl_multi_perform`. A callback that must stop the transfer records why in
/// ``CurlTransfer/failure`` and returns an error value, which makes libcurl end the transfer at once.
extension CurlTransfer {
    /// `CURLOPT_HEADERFUNCTION`: one complete header line per call, for every response of the hop (interim
    /// `1xx` heads, then the redirect or final head, then trailers).
    static let headerCallback: curl_write_callback = { buffer, size, count, userdata in
        let length = size * count
        guard let buffer, let userdata else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
        return transfer.receiveHeaderLine(line) ? length : 0
    }

    /// `CURLOPT_WRITEFUNCTION`: body bytes of the final response, decoded if content-encoded.
    static let writeCallback: curl_write_callback = { buffer, size, count, userdata in
        let length = size * count
        guard let userdata else { return 0 }
        guard let buffer, length > 0 else { return length }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
        return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }

    /// `CURLOPT_OPENSOCKETFUNCTION` (set only with a connection policy): the address libcurl is about to
    /// connect to, for the first URL, each redirect hop and each address of a host it tries.
    static let openSocketCallback: curl_opensocket_callback = { clientp, _, address in
        guard let clientp, let address else { return CURL_SOCKET_BAD }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(clientp).takeUnretainedValue()
        return transfer.openSocket(address)
    }

    /// Returns `false` to stop the transfer.
    private func receiveHeaderLine(_ line: String) -> Bool {
        let kind = head.consume(line)
        if kind == .redirect {
            redirectHead = head  // its body is not delivered; the hop's end decides where to go next
            return true
        }
        guard kind == .final else { return true }
        let status = head.status
        if status != 304 && !(200...299).contains(status) {
            // The head goes with the error, only the fields a cache reads: a cache may store a failure with its
            // freshness (RFC 9111 §4.2.2).
            let failed = DataResponse(
                data: Data(), statusCode: status, headers: head.fields, url: currentURL, redirects: redirects
            ).failureHead()
            return stop(
                PinholeError(.httpStatus, "HTTP \(status) for \(url)", httpStatusCode: status, httpResponse: failed))
        }
        let expected = head.expectedBodyBytes
        if let expected, expected > options.maxResponseBytes {
            return stop(tooLarge("declares \(expected) bytes"))
        }
        finalHead = head
        body = Data()
        if let expected { body.reserveCapacity(expected) }
        progress.start(expected: expected)
        return true
    }

    /// Returns `false` to stop the transfer.
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard finalHead != nil else {
            // A redirect's (or an interim response's) body is dropped, but bounded like any body: a 302 with an
            // endless chunked body would otherwise be read until the deadline.
            discardedBytes += bytes.count
            return discardedBytes <= options.maxResponseBytes || stop(tooLarge("sent more bytes before the redirect"))
        }
        if body.count + bytes.count > options.maxResponseBytes { return stop(tooLarge("sent more bytes")) }
        body.append(contentsOf: bytes)
        if options.requiresImageContent && !sniffed && body.count >= 64 {
            // An HTML error page served as an image stops here.
            sniffed = true
            let content = ImageFormat.sniff(body)
            if case .notAnImage = content, let error = PinholeError.forSniffed(content) { return stop(error) }
        }
        let request = transfer.request
        if request.onProgress != nil || request.onPartialData != nil {
            progress.received(body, onProgress: request.onProgress, onPartialData: request.onPartialData)
        }
        return true
    }

    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        var bytes = [UInt8](repeating: 0, count: 16)
        var port: UInt16 = 0
        let version = CPinholeCurl_sockaddr_ip(address, &bytes, &port)
        let hopURL = currentURL
        let ip: IPAddress
        switch version {
        case 4: ip = .v4(bytes[0..<4].reduce(0) { $0 << 8 | UInt32($1) })
        case 6: ip = .v6(bytes)
        default:
            if refusal == nil {
                refusal = PinholeError(.untrustedSource, "\(hopURL.absoluteString): not an IP connection")
            }
            return CURL_SOCKET_BAD
        }
        do {
            try options.connectionPolicy?(ip, hopURL)
        } catch {
            if refusal == nil { refusal = error }
            return CURL_SOCKET_BAD
        }
        return CPinholeCurl_open_socket(address)
    }

    /// The URL libcurl is fetching now (the latest redirect target), or the request's.
    var currentURL: URL {
        var effective: UnsafePointer<CChar>?
        CPinholeCurl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        return effective.flatMap { URL(string: String(cString: $0)) } ?? transfer.request.url
    }

    private func stop(_ error: any Error) -> Bool {
        if failure == nil { failure = error }
        return false
    }

    private func tooLarge(_ what: String) -> PinholeError {
        PinholeError(.dataTooLarge, "\(url) \(what), over the \(options.maxResponseBytes)-byte limit")
    }
}
