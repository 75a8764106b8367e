/// One `--name` option a command accepts: whether it takes a value, and its help text.
struct OptionSpec: Sendable, Hashable {
    /// The long name with its dashes (`"--size"`).
    let name: String
    /// The placeholder of the value in help (`"PIXELS"`), or `nil` for a flag that takes no value.
    let valueName: String?
    /// What the option does, one or more sentences, ending with its default when it has one.
    let help: String

    /// An option that takes a value: `--name VALUE` or `--name=VALUE`.
    static func value(_ name: String, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }

    /// A flag that takes no value: `--name`.
    static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    /// Whether the option needs a value.
    var takesValue: Bool { valueName != nil }

    /// The option as help shows it: `--size PIXELS` or `--json`.
    var synopsis: String { valueName.map { "\(name) \($0)" } ?? name }
}
