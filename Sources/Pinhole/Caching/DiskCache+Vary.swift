import Foundation

extension DiskCache.Metadata {
    /// The lowercased header names a `Vary` field lists (`*` included as `"*"`).
    static func varyNames(_ vary: String?) -> [String] {
        guard let vary else { return [] }
        return vary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// The values of `names` in `headers`, compared case-insensitively by name (absent names left out).
    static func values(of names: [String], in headers: [String: String]) -> [String: String] {
        var lowercased: [String: String] = [:]
        for (name, value) in headers { lowercased[name.lowercased()] = value }
        var selected: [String: String] = [:]
        for name in names { if let value = lowercased[name] { selected[name] = value } }
        return selected
    }

    /// This metadata with `vary` (the response's `Vary` field) and the values of the request headers it names.
    public func varying(_ vary: String?, requestHeaders: [String: String]) -> Self {
        var copy = self
        copy.vary = vary
        copy.varyingRequestHeaders = vary.map { Self.values(of: Self.varyNames($0), in: requestHeaders) }
        return copy
    }

    /// Whether the stored response may answer a request with `requestHeaders`: every header its `Vary` names has
    /// the value it had in the request that was stored (absent matches absent), and `Vary` is not `*`.
    ///
    /// Source: https://www.rfc-editor.org/rfc/rfc9111#section-4.1
    public func matches(requestHeaders: [String: String]) -> Bool {
        let names = Self.varyNames(vary)
        guard !names.isEmpty else { return true }
        guard !names.contains("*") else { return false }
        return Self.values(of: names, in: requestHeaders) == (varyingRequestHeaders ?? [:])
    }
}
