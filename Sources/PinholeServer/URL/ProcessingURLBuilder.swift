public import Foundation
public import Pinhole

/// Builds signed processing URLs for a `pinhole serve` (or imgproxy) at `base`: what a list screen asks for so
/// that the server sends each row's thumbnail at exactly the box it draws.
///
/// `rs:fit:W:H` for ``ThumbnailOptions/ContentMode/aspectFit``, `rs:fill:W:H/g:G` for
/// ``ThumbnailOptions/ContentMode/fill(crop:)`` (`ce`, `sm`, compass), `el:1` when upscaling is allowed; the
/// source is percent-encoded in the `plain` form. ``ThumbnailOptions/ContentMode/aspectFill`` has no imgproxy
/// equivalent: ``url(source:thumbnail:)`` gives `nil` for it.
public struct ProcessingURLBuilder: Sendable {
    /// The server's base URL (`http://host:port`, an optional path prefix).
    public let base: URL
    /// Signs the path; `nil` writes `insecure` in the signature's place (a server with `--allow-unsigned`).
    public let signer: URLSigner?
    /// The output extension; `nil` leaves the format to `Accept`.
    public let format: OutputFormat?

    public init(base: URL, signer: URLSigner?, format: OutputFormat? = .webp) {
        self.base = base
        self.signer = signer
        self.format = format
    }

    /// The URL of `source`'s thumbnail in `thumbnail`'s box, or `nil` for a box the URL format cannot say.
    public func url(source: URL, thumbnail: ThumbnailOptions) -> URL? {
        let size = "\(thumbnail.size.width):\(thumbnail.size.height)"
        var options: [String]
        switch thumbnail.contentMode {
        case .aspectFit: options = ["rs:fit:\(size)"]
        case .aspectFill: return nil
        case .fill(let crop):
            guard let gravity = Self.gravity(crop) else { return nil }
            options = ["rs:fill:\(size)", "g:\(gravity)"]
        }
        if thumbnail.allowsUpscaling { options.append("el:1") }
        let encoded = source.absoluteString.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
        let path = "/" + options.joined(separator: "/") + "/plain/" + encoded + (format.map { "@\($0.rawValue)" } ?? "")
        let signed = signer.map { $0.signedPath(path) } ?? "/insecure\(path)"
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        return URL(string: root + signed)
    }

    /// RFC 3986's unreserved characters: everything else in the source is percent-encoded.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func gravity(_ crop: ThumbnailOptions.Crop) -> String? {
        switch crop {
        case .centre: "ce"
        case .attention: "sm"
        case .entropy: nil
        case .north: "no"
        case .south: "so"
        case .east: "ea"
        case .west: "we"
        case .northEast: "noea"
        case .northWest: "nowe"
        case .southEast: "soea"
        case .southWest: "sowe"
        }
    }
}
