/// Derives a stable, collision-free output file name for every input.
///
/// The rule: the input's path relative to the INPUT it was found under, with its extension removed, `/`
/// replaced by `__`, and `.SIZE.EXT` appended (`2024/a.jpg` → `2024__a.360.jpg`). A name already taken
/// (compared case-insensitively, for case-insensitive file systems) gets `-2`, `-3`, … before `.SIZE`;
/// the first input in order keeps the plain name. The result depends only on the inputs and their order,
/// so two runs over the same inputs give the same names.
struct OutputNaming: Sendable {
    /// The thumbnail size that goes into names (pixels).
    let size: Int
    /// The file extension without its dot (`jpg`).
    let fileExtension: String

    /// One name per relative path, in the same order.
    func names(for relativePaths: [String]) -> [String] {
        let stems = relativePaths.map(stem)
        var taken = Set<String>()
        // Plain names are reserved first, in order, so a suffixed name never steals a later plain one.
        var plainOwner: [String: Int] = [:]
        for (index, stem) in stems.enumerated() where plainOwner[key(stem)] == nil {
            plainOwner[key(stem)] = index
            taken.insert(key(stem))
        }
        var names: [String] = []
        for (index, stem) in stems.enumerated() {
            if plainOwner[key(stem)] == index {
                names.append(name(stem))
                continue
            }
            var counter = 2
            while taken.contains(key("\(stem)-\(counter)")) { counter += 1 }
            taken.insert(key("\(stem)-\(counter)"))
            names.append(name("\(stem)-\(counter)"))
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

    private func name(_ stem: String) -> String {
        "\(stem).\(size).\(fileExtension)"
    }

    private func key(_ stem: String) -> String {
        stem.lowercased()
    }
}
