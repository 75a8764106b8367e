import Foundation

/// Loads `data:` URLs (RFC 2397): `data:[<media type>][;base64],<data>`, the bytes percent-encoded or base64.
///
/// The pipeline uses it for every `data:` URL. No I/O: decoding the URL's text runs on the calling task and
/// costs O(length of the URL). Safe from any isolation.
///
/// - Throws: ``PinholeError/Code/invalidRequest`` for a URL that is not `data:`, has no comma, or whose base64
///   does not decode; ``PinholeError/Code/emptyData`` for no bytes.
public struct DataURLLoader: DataLoading {
    public init() {}

    public func loadData(for request: DataRequest) async throws -> DataResponse {
        try Task.checkCancellation()
        let data = try Self.bytes(of: request.url)
        request.onProgress?(data.count, data.count)
        return DataResponse(data: data, url: request.url, metrics: TransferMetrics(bytesReceived: data.count))
    }

    /// The bytes a `data:` URL carries.
    static func bytes(of url: URL) throws -> Data {
        let text = url.absoluteString
        guard text.lowercased().hasPrefix("data:"), let comma = text.firstIndex(of: ",") else {
            throw PinholeError(.invalidRequest, "not a data: URL (RFC 2397): \(text.prefix(64))")
        }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = String(text[text.index(after: comma)...])
        let data: Data?
        if header.hasSuffix(";base64") {
            // Base64 may itself be percent-encoded, and may lack its padding.
            let base64 = (payload.removingPercentEncoding ?? payload).filter { !$0.isWhitespace }
            let padded = base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
            data = Data(base64Encoded: padded)
        } else {
            data = Data((payload.removingPercentEncoding ?? payload).utf8)
        }
        guard let data else { throw PinholeError(.invalidRequest, "data: URL whose base64 does not decode") }
        guard !data.isEmpty else { throw PinholeError(.emptyData, "empty data: URL") }
        return data
    }
}
