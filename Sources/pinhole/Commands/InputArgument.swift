import Foundation

/// What one INPUT argument of `pinhole thumbnail` names: a path, an http(s) URL, or nothing usable.
///
/// - `http://…` and `https://…` (any case) must parse as a URL with a host (and a port in 0…65535): a space in
///   the host, an empty host or a bad port make the argument ``invalid(_:)``, never silently dropped.
/// - `file://…` names the URL's path.
/// - Any other `scheme://…` is ``invalid(_:)`` (only http, https and file are read); to name a local path that
///   looks like one, write it as `./scheme://…`.
/// - An empty argument is ``invalid(_:)``; anything else is a path (files and directories; a missing one fails
///   later as `file_not_found`).
enum InputArgument: Sendable, Equatable {
    case path(String)
    case remote(URL)
    /// Why the argument names no file or URL, for the report.
    case invalid(String)

    /// The report's kind for an invalid argument.
    static let invalidKind = "invalid_input"

    init(_ argument: String) {
        guard !argument.isEmpty else {
            self = .invalid("an empty argument names no file or URL")
            return
        }
        guard let scheme = Self.scheme(of: argument) else {
            self = .path(argument)
            return
        }
        switch scheme {
        case "http", "https":
            guard let url = URL(string: argument) else {
                self = .invalid("not a valid URL: \(argument) (a space or another character not allowed in a URL?)")
                return
            }
            guard let host = url.host, !host.isEmpty else {
                self = .invalid("the URL has no host: \(argument)")
                return
            }
            if let port = url.port, !(0...65_535).contains(port) {
                self = .invalid("the URL's port \(port) is not in 0-65535: \(argument)")
                return
            }
            self = .remote(url)
        case "file":
            guard let url = URL(string: argument), url.isFileURL, !url.path.isEmpty else {
                self = .invalid("not a valid file URL: \(argument)")
                return
            }
            self = .path(url.path)
        default:
            self = .invalid("unsupported URL scheme '\(scheme)' in \(argument) (use http, https, file or a path)")
        }
    }

    /// The lowercased scheme when `argument` starts with `scheme://` (RFC 3986 scheme characters), else `nil`.
    private static func scheme(of argument: String) -> String? {
        guard let range = argument.range(of: "://") else { return nil }
        let scheme = argument[..<range.lowerBound]
        let allowed = { (scalar: Unicode.Scalar) in
            scalar.isASCIILetter || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar)
        }
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter, scheme.unicodeScalars.allSatisfy(allowed)
        else { return nil }
        return scheme.lowercased()
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
