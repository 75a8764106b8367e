import Foundation

/// Short descriptions of responses and task events: sizes, formats and where they came from, never pixels nor
/// the request's headers (they may carry credentials).
extension ImageResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// `360×240 rgb8 of jpeg 4000×3000 from network: https://example.com/a.jpg` (a URL over 120 characters, such
    /// as a `data:` URL, is cut to its first 120 with `…`).
    public var description: String { "\(image) of \(info) from \(source.rawValue): \(Self.shortened(request.url))" }

    /// `ImageResponse(…)` around ``description``.
    public var debugDescription: String { "ImageResponse(\(description))" }

    /// The URL's absolute string, cut to 120 characters.
    static func shortened(_ url: URL) -> String {
        let text = url.absoluteString
        return text.count <= 120 ? text : text.prefix(120) + "…"
    }
}

extension ImageTask.Event: CustomStringConvertible {
    /// `progress(1024/4096 bytes)`, `preview(…)`, `finished(success(…))` or `finished(failure(…))`, with the
    /// response's short ``ImageResponse/description``.
    public var description: String {
        switch self {
        case .progress(let progress): "progress(\(progress))"
        case .preview(let response): "preview(\(response))"
        case .finished(.success(let response)): "finished(success(\(response)))"
        case .finished(.failure(let error)): "finished(failure(\(error)))"
        }
    }
}
