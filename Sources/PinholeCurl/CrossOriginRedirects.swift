import Foundation
import Pinhole

/// Which request headers follow a redirect: all of them while every hop stays on the request's origin, only
/// ``forwardedHeaderNames`` once a hop leaves it.
///
/// An origin is the scheme, host and port (RFC 6454 §4; the default port of the scheme when none is given), so
/// `http://a` → `https://a`, `a:80` → `a:8080` and `a` → `b` all leave it. Once left, the chain stays left: a
/// later hop back to the request's origin gets the allow-listed headers only, because the other origin chose
/// that hop (the Fetch standard drops `Authorization` the same way, for the rest of the redirect chain).
///
/// The allow-list is the headers that carry no credential and that a server of any origin may see: content
/// negotiation (`Accept`, `Accept-Language`), the client's name (`User-Agent`), cache directives (`Cache-Control`,
/// `Pragma`) and the cached copy's validators (`If-None-Match`, `If-Modified-Since`: they came from the final
/// response of the chain, so a cross-origin target can still answer `304`). Every other header is dropped,
/// `Authorization`, `Cookie`, `Proxy-Authorization`, API keys (`X-Api-Key`) and every custom header included.
enum CrossOriginRedirects {
    /// Lowercased names of the headers sent to a hop outside the request's origin.
    static let forwardedHeaderNames: Set<String> = [
        "accept", "accept-language", "cache-control", "if-modified-since", "if-none-match", "pragma", "user-agent",
    ]

    /// Whether a header named `name` (any case) is sent to a hop outside the request's origin.
    static func forwards(_ name: String) -> Bool {
        forwardedHeaderNames.contains(name.lowercased())
    }

    /// Whether `a` and `b` have the same scheme, host and port (case-insensitive, default ports filled in).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        guard let first = Origin(a), let second = Origin(b) else { return false }
        return first == second
    }

    private struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int

        init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
                return nil
            }
            let defaultPort: Int
            switch scheme {
            case "http": defaultPort = 80
            case "https": defaultPort = 443
            default: return nil
            }
            self.scheme = scheme
            self.host = host
            self.port = url.port ?? defaultPort
        }
    }
}
