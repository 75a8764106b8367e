/// A command line that cannot be run as typed: an unknown option, a missing or malformed value, no inputs.
///
/// The CLI prints ``message`` and a pointer to `--help` on stderr and exits with status 2.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence that names the offending argument (`"unknown option '--sise'"`).
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
