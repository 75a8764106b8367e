public import Pinhole

/// A format the server encodes to, named as in imgproxy's `format` option and extension.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case webp
    case avif
    /// Only when the URL names it (never negotiated): the format of animations every client plays.
    case gif

    /// `jpg`/`jpeg`, `png`, `webp`, `avif`, `gif` (case-insensitive); `nil` for anything else.
    public init?(extension name: some StringProtocol) {
        switch name.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "avif": self = .avif
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The `Content-Type` of an answer in this format.
    public var mediaType: String { "image/\(rawValue)" }

    /// Whether the format keeps an alpha channel (GIF: fully transparent pixels only).
    public var keepsAlpha: Bool { self != .jpeg }

    /// Whether an animation can be written in the format: WebP and GIF.
    public var canAnimate: Bool { self == .webp || self == .gif }

    /// The encoder's format.
    public var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .avif: .avif
        case .gif: .gif
        }
    }
}
