public import Pinhole

/// A format the server encodes to, named as in imgproxy's `format` option and extension.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case webp
    case avif

    /// `jpg`/`jpeg`, `png`, `webp`, `avif` (case-insensitive); `nil` for anything else.
    public init?(extension name: some StringProtocol) {
        switch name.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "avif": self = .avif
        default: return nil
        }
    }

    /// The `Content-Type` of an answer in this format.
    public var mediaType: String { "image/\(rawValue)" }

    /// Whether the format keeps an alpha channel.
    public var keepsAlpha: Bool { self != .jpeg }

    /// The encoder's format.
    public var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .avif: .avif
        }
    }
}
