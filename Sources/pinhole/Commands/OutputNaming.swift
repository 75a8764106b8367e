import PinholeShared

/// Derives a stable, collision-free output file name for every input, short enough for any file system.
///
/// The rule: the input's path relative to the INPUT it was found under, with its extension removed, `/`
/// replaced by `__`, and `.SIZE.EXT` appended (`2024/a.jpg` → `2024__a.360.jpg`). A name already taken
/// (compared case-insensitively, for case-insensitive file systems) gets `-2`, `-3`, … before `.SIZE`;
/// the first input in order keeps the plain name. A name longer than ``maxNameBytes`` (255 bytes of UTF-8, the
/// `NAME_MAX` of Linux and macOS file systems) keeps as many whole characters of its stem as fit, followed by `~`
/// and 8 hexadecimal digits of a hash of the whole stem (FNV-1a), so long names that share a beginning stay
/// apart. The result depends only on the inputs and their order, so two runs over the same inputs give the same
/// names.
struct OutputNaming: Sendable {
    /// The thumbnail size that goes into names (pixels).
    let size: Int
    /// The file extension without its dot (`jpg`).
    let fileExtension: String

    /// One name per relative path, in the same order; every name is at most ``maxNameBytes`` bytes.
    func names(for relativePaths: [String]) -> [String] {
        let stems = relativePaths.map(stem)
        let plainNames = stems.map { name($0, counter: nil) }
        var taken = Set<String>()
        // Plain names are reserved first, in order, so a suffixed name never steals a later plain one.
        var plainOwner: [String: Int] = [:]
        for (index, plain) in plainNames.enumerated() where plainOwner[key(plain)] == nil {
            plainOwner[key(plain)] = index
            taken.insert(key(plain))
        }
        var names: [String] = []
        for (index, stem) in stems.enumerated() {
            if plainOwner[key(plainNames[index])] == index {
                names.append(plainNames[index])
                continue
            }
            var counter = 2
            while taken.contains(key(name(stem, counter: counter))) { counter += 1 }
            let numbered = name(stem, counter: counter)
            taken.insert(key(numbered))
            names.append(numbered)
        }
        return names
    }

    /// `dir/sub/a.b.jpg` → `dir__sub__a.b`; a leading dot of a file name is kept (`.x` → `.x`).
    func stem(_ relativePath: String) -> String {
        var components = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if let last = components.last, let dot = last.lastIndex(of: "."), dot != last.startIndex {
            components[components.count - 1] = String(last[..<dot])
        }
        let joined = components.joined(separator: "__")
        return joined.isEmpty ? "image" : joined
    }

    /// `stem[-counter].SIZE.EXT`, with the stem shortened (and a hash of it added) when that is over the limit.
    func name(_ stem: String, counter: Int?) -> String {
        let suffix = (counter.map { "-\($0)" } ?? "") + ".\(size).\(fileExtension)"
        let whole = stem + suffix
        guard whole.utf8.count > Self.maxNameBytes else { return whole }
        let mark = "~" + Self.shortHash(stem)
        let budget = Self.maxNameBytes - suffix.utf8.count - mark.utf8.count
        var kept = ""
        var bytes = 0
        for character in stem {
            let length = character.utf8.count
            guard bytes + length <= budget else { break }
            kept.append(character)
            bytes += length
        }
        return kept + mark + suffix
    }

    private func key(_ name: String) -> String {
        name.lowercased()
    }

    /// 8 lowercase hexadecimal digits (the high 32 bits) of the ``StableHash`` of `text`: the same in every run
    /// and on every machine, unlike `Hasher`.
    static func shortHash(_ text: String) -> String {
        let hex = String(StableHash.fnv1a64(text) >> 32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
