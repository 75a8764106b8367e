/// Why a processing URL was refused before any work: answered 400 (403 for a signature, 404 for an unknown
/// path), with ``code`` in the JSON body.
public struct ProcessingURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `invalid_url`, `unknown_option`, `invalid_option`, `unsupported_option`, `unsupported_format`,
    /// `invalid_signature`, `source_not_allowed`.
    public let code: String
    /// What was wrong, naming the option or part (no server path, no stack).
    public let message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    static func invalid(_ message: String) -> ProcessingURLError { ProcessingURLError("invalid_url", message) }
}
