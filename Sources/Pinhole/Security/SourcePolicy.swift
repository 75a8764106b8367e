public import Foundation

/// Whether a pipeline's image URLs come from someone it trusts (``ImagePipeline/Configuration/sourcePolicy``).
///
/// A service that fetches URLs its users give it must not become a way into its own machine or network
/// (server-side request forgery). Under ``untrusted(allowedFileRoot:)`` the pipeline:
/// - accepts only `http` and `https` URLs, and `file` URLs only under `allowedFileRoot` (after resolving
///   symlinks; any `..` component is refused outright);
/// - refuses hosts that are, or resolve to, non-public addresses (see ``IPAddress/nonPublicReason``), in any
///   spelling (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`, `[::ffff:127.0.0.1]`), before the request starts;
/// - with its default HTTP loader, checks the address of every connection when its socket is opened — the first
///   URL's and every redirect target's (through ``SourceRestriction/checkConnection``) — so a name
///   that resolves to a public address for the first check and to a private one for the connection (DNS
///   rebinding) is refused before a SYN is sent;
/// - keeps its limits on: pixels per frame at most ``untrustedMaxPixelCount``, frames at most
///   ``untrustedMaxFrameCount``, bytes per source at most ``untrustedMaxBytes`` (smaller configured limits stay);
/// - has the decoder confine itself (``DecodingOptions/untrustedFormats``): the bytes are decoded only as one of
///   ``ImagePipeline/Configuration/untrustedFormats`` (``ImageFormat/untrustedDefault``: JPEG, PNG, GIF, WebP,
///   HEIF, AVIF, TIFF), each by its own codec; anything else fails with ``PinholeError/Code/unsupportedFormat``.
///
/// Every refusal is a ``PinholeError`` with ``PinholeError/Code/untrustedSource``, raised before any byte is sent
/// to the refused address. See ``UntrustedSourceGuard`` for the two checks.
public enum SourcePolicy: Sendable, Hashable {
    /// Any URL the loaders support; limits as configured. The default.
    case trusted
    /// Public http(s) hosts only, files only under `allowedFileRoot` (none when `nil`), limits always on.
    case untrusted(allowedFileRoot: URL?)

    /// 100,000,000: the most pixels per frame an untrusted source may declare.
    public static let untrustedMaxPixelCount = 100_000_000
    /// 1,000: the most frames an untrusted source may declare.
    public static let untrustedMaxFrameCount = 1000
    /// 50,000,000: the most bytes read from one untrusted source.
    public static let untrustedMaxBytes = 50_000_000

    /// `true` for ``untrusted(allowedFileRoot:)``.
    public var isUntrusted: Bool {
        if case .untrusted = self { return true }
        return false
    }
}
