import Foundation

/// The `Cache-Control` directives of a response, as a private cache reads them (RFC 9111 §5.2).
///
/// Directive names are case-insensitive; an argument may be a token or a quoted string (both are accepted, as
/// §5.2 asks of recipients), and commas inside quotes do not split directives. Directives a private cache does not
/// act on (`public`, `private`, `s-maxage`, `proxy-revalidate`, extensions) are kept but ignored.
///
/// Source: https://www.rfc-editor.org/rfc/rfc9111#section-5.2
struct HTTPCacheControl: Sendable, Equatable {
    /// A `max-age` (or `Age`) value: absent, a number of seconds, or present but not a valid delta-seconds.
    enum Seconds: Sendable, Equatable {
        case absent
        case seconds(Int)
        case invalid
    }

    /// One directive: its lowercased name and its argument (unquoted), if any.
    struct Directive: Sendable, Equatable {
        var name: String
        var argument: String?
    }

    let directives: [Directive]

    /// Parses a `Cache-Control` field value; `nil` or empty gives no directives.
    init(_ field: String?) {
        directives = Self.split(field ?? "").compactMap { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { return nil }
            let argument = parts.count > 1 ? Self.unquoted(parts[1].trimmingCharacters(in: .whitespaces)) : nil
            return Directive(name: name, argument: argument)
        }
    }

    func contains(_ name: String) -> Bool { directives.contains { $0.name == name } }

    /// `no-store`: the response must never be stored (§5.2.2.5).
    var noStore: Bool { contains("no-store") }
    /// `no-cache` (with or without field names): stored, but never used without revalidation (§5.2.2.4).
    var noCache: Bool { contains("no-cache") }
    /// `must-revalidate`: once stale, never used without a successful revalidation (§5.2.2.2).
    var mustRevalidate: Bool { contains("must-revalidate") }

    /// `max-age` (§5.2.2.1). Conflicting repeats or a non-numeric argument are `.invalid` (§4.2.1 encourages
    /// treating such a response as stale); values past 2^31 are clamped to 2^31 (§1.2.2).
    var maxAge: Seconds {
        let values = directives.filter { $0.name == "max-age" }.map { $0.argument.map(Self.deltaSeconds) ?? .invalid }
        guard let first = values.first else { return .absent }
        return values.allSatisfy { $0 == first } ? first : .invalid
    }

    /// A delta-seconds value (`1*DIGIT`), clamped to 2^31; `.invalid` for anything else, `.absent` for `nil`.
    static func deltaSeconds(_ text: String?) -> Seconds {
        guard let text else { return .absent }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return .invalid }
        let limit = 2_147_483_648
        return .seconds(trimmed.count > 10 ? limit : min(Int(trimmed) ?? limit, limit))
    }

    /// Splits on commas outside quoted strings.
    private static func split(_ field: String) -> [String] {
        var items: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for character in field {
            if escaped {
                escaped = false
            } else if inQuotes && character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == "," && !inQuotes {
                items.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        items.append(current)
        return items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A quoted string without its quotes and escapes; a token as is.
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if !escaped && character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}
