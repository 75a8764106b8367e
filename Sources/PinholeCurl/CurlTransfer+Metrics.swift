import CCurl
import CPinholeCurl
import Foundation
import Pinhole

/// libcurl's timings and byte counts of a transfer, as ``DataResponse/metrics`` reports them.
///
/// libcurl gives each timing from the start of the hop to the end of a phase (`CURLINFO_*_TIME_T`, in
/// microseconds); the phases are the differences. A phase whose end is 0 (or not after the previous one) did not
/// happen: a reused connection has no connect, plain `http` no TLS. Each redirect hop restarts libcurl's timers
/// on the same handle, so each phase is summed over the hops (``recordHop()``: a redirect to the same origin
/// reuses the connection the first hop opened), as are the bytes sent and the header bytes; the body bytes are
/// the last hop's, and the total is measured from the first hop's start.
extension CurlTransfer {
    /// Adds the hop just done to the chain's totals (before the next hop begins).
    func recordHop() {
        let hop = hopMetrics()
        earlierHops = earlierHops.map { Self.sum($0, hop) } ?? hop
    }

    /// The transfer's metrics once its last hop is done.
    func transferMetrics() -> TransferMetrics {
        var metrics = hopMetrics()
        if let earlierHops { metrics = Self.sum(earlierHops, metrics) }
        metrics.total = ContinuousClock.now - startedAt
        metrics.redirectCount = redirects.count
        return metrics
    }

    /// The phases and bytes of `later` added to `earlier`'s (a phase that happened in neither stays `nil`); the
    /// body bytes are `later`'s.
    static func sum(_ earlier: TransferMetrics, _ later: TransferMetrics) -> TransferMetrics {
        func add(_ a: Duration?, _ b: Duration?) -> Duration? { a.map { $0 + (b ?? .zero) } ?? b }
        func add(_ a: Int?, _ b: Int?) -> Int? { a.map { $0 + (b ?? 0) } ?? b }
        return TransferMetrics(
            nameLookup: add(earlier.nameLookup, later.nameLookup), connect: add(earlier.connect, later.connect),
            secureConnect: add(earlier.secureConnect, later.secureConnect),
            firstByte: add(earlier.firstByte, later.firstByte), download: add(earlier.download, later.download),
            bytesReceived: later.bytesReceived,
            headerBytesReceived: add(earlier.headerBytesReceived, later.headerBytesReceived),
            bytesSent: add(earlier.bytesSent, later.bytesSent))
    }

    /// The hop just done's phases and bytes, from libcurl.
    private func hopMetrics() -> TransferMetrics {
        let lookup = microseconds(CURLINFO_NAMELOOKUP_TIME_T)
        let connected = microseconds(CURLINFO_CONNECT_TIME_T)
        let secured = microseconds(CURLINFO_APPCONNECT_TIME_T)
        let firstByte = microseconds(CURLINFO_STARTTRANSFER_TIME_T)
        let total = microseconds(CURLINFO_TOTAL_TIME_T)
        let ready = max(lookup, connected, secured)
        return TransferMetrics(
            nameLookup: Self.phase(from: 0, to: lookup),
            connect: Self.phase(from: lookup, to: connected),
            secureConnect: Self.phase(from: connected, to: secured),
            firstByte: Self.phase(from: ready, to: firstByte),
            download: Self.phase(from: firstByte, to: total),
            bytesReceived: Int(clamping: offInfo(CURLINFO_SIZE_DOWNLOAD_T)),
            headerBytesReceived: longInfo(CURLINFO_HEADER_SIZE),
            bytesSent: longInfo(CURLINFO_REQUEST_SIZE))
    }

    /// The phase from `start` to `end` (microseconds since the hop began), or `nil` when it did not happen.
    static func phase(from start: Int64, to end: Int64) -> Duration? {
        guard end > 0, end >= start else { return nil }
        return .microseconds(end - start)
    }

    private func microseconds(_ info: CURLINFO) -> Int64 {
        Int64(offInfo(info))
    }

    private func offInfo(_ info: CURLINFO) -> curl_off_t {
        var value: curl_off_t = 0
        return CPinholeCurl_easy_getinfo_off_t(easy, info, &value) == CURLE_OK ? value : 0
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        return CPinholeCurl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }
}
