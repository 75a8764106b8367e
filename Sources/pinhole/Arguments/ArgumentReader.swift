/// Splits command-line tokens into positionals, option values and flags, against a list of ``OptionSpec``.
///
/// Accepted forms: `--name VALUE`, `--name=VALUE`, `--flag`, `-h` (same as `--help` when the command has it),
/// and `--`, after which every token is positional. A lone `-` is positional. A value may itself start with
/// a dash when written as `--name=-1` or as the token after `--name`.
///
/// Errors (all ``UsageError``): an unknown option, an option that needs a value at the end of the line, an empty
/// value (`--out=` or `--out ""`: no option takes one, and an empty path would name `/` or the current
/// directory), and a value given to a flag (`--json=yes`).
struct ArgumentReader: Sendable {
    /// The options the command accepts.
    let options: [OptionSpec]

    /// Reads `tokens` (the arguments after the command name).
    ///
    /// - Throws: ``UsageError`` naming the first offending token.
    func read(_ tokens: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let token = tokens[index]
            index += 1
            if token == "--" {
                result.positionals.append(contentsOf: tokens[index...])
                break
            }
            guard token.hasPrefix("-"), token != "-" else {
                result.positionals.append(token)
                continue
            }
            let (name, inlineValue) = split(token)
            guard let spec = option(named: name) else {
                throw UsageError("unknown option '\(name)'")
            }
            guard spec.takesValue else {
                if inlineValue != nil { throw UsageError("\(spec.name) takes no value") }
                result.flags.insert(spec.name)
                continue
            }
            if let inlineValue {
                guard !inlineValue.isEmpty else { throw UsageError("\(spec.name) needs a value") }
                result.values[spec.name] = inlineValue
                result.allValues[spec.name, default: []].append(inlineValue)
            } else {
                guard index < tokens.endIndex else { throw UsageError("\(spec.synopsis): missing value") }
                guard !tokens[index].isEmpty else { throw UsageError("\(spec.name) needs a value, not ''") }
                result.values[spec.name] = tokens[index]
                result.allValues[spec.name, default: []].append(tokens[index])
                index += 1
            }
        }
        return result
    }

    /// `--name=value` → (`--name`, `value`); `--name` → (`--name`, nil).
    private func split(_ token: String) -> (name: String, value: String?) {
        guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }

    private func option(named name: String) -> OptionSpec? {
        let longName = name == "-h" ? "--help" : name
        return options.first { $0.name == longName }
    }
}
