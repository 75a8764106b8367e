/// The result of ``ArgumentReader/read(_:)``: positional arguments in order, option values and flags.
///
/// Typed accessors turn values into numbers and choices, throwing ``UsageError`` that names the option.
struct ParsedArguments: Sendable, Equatable {
    /// Arguments that are not options, in the order given (everything after `--` is positional).
    var positionals: [String] = []
    /// The value of each option that was given, by long name (`"--size"`); the last one wins when repeated.
    var values: [String: String] = [:]
    /// Every value of each option, in the order given (for repeatable options such as `--header`).
    var allValues: [String: [String]] = [:]
    /// The flags that were given, by long name (`"--json"`).
    var flags: Set<String> = []

    /// Whether the flag `name` was given.
    func has(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The raw value of option `name`, or `nil` when it was not given.
    func string(_ name: String) -> String? {
        values[name]
    }

    /// Every value given to option `name`, in order; empty when it was not given.
    func strings(_ name: String) -> [String] {
        allValues[name] ?? []
    }

    /// The value of option `name` as a decimal integer in `range`, or `defaultValue` when it was not given.
    ///
    /// - Throws: ``UsageError`` when the value is not a decimal integer or lies outside `range`.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let number = Int(text) else {
            throw UsageError("\(name) needs a whole number, not '\(text)'")
        }
        guard range.contains(number) else {
            throw UsageError("\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(number)")
        }
        return number
    }

    /// The value of option `name`, which must be one of `choices`, or `defaultValue` when it was not given.
    ///
    /// - Throws: ``UsageError`` when the value is not one of `choices` (compared case-insensitively).
    func choice(_ name: String, default defaultValue: String, in choices: [String]) throws(UsageError) -> String {
        guard let text = values[name] else { return defaultValue }
        guard let match = choices.first(where: { $0.lowercased() == text.lowercased() }) else {
            throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        return match
    }

    /// `text` as a plain decimal number (`2`, `0.5`, `.5`, `10.`), or `nil` for anything else: Swift's `Double(_:)`
    /// also reads `0x10` (16), `1e3`, `inf` and `nan`, which no option here means.
    static func plainDecimal(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = parts.joined()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Double(text)
    }
}
