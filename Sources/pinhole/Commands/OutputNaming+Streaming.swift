import PinholeShared

extension OutputNaming {
    /// The longest file name written, in bytes (the limit of ext4, XFS, btrfs and most other file systems).
    static let maxNameBytes = 255

    /// The thumbnail file name of an input read from a list (`--input-list`), from that input alone.
    ///
    /// A list is never held whole, and shards and restarted runs must agree on every name without seeing the
    /// other inputs, so the collision rule of ``names(for:)`` (which needs every input) cannot apply. Instead
    /// the name is the ``stem(_:)`` of `relativePath`, `-`, the first 8 hex digits of the input's
    /// ``StableHash`` and `.SIZE.EXT`: `photos/2024/a.jpg` → `photos__2024__a-3f1c9a02.360.jpg`. Two inputs
    /// get the same name only if their stems are equal (ignoring case) *and* their hashes share 32 bits.
    /// The stem is shortened (at a character boundary) so the name stays within ``maxNameBytes``.
    ///
    /// - Parameters:
    ///   - relativePath: the input's path with `/` separators (see ``InputFile/init(listed:)``).
    ///   - hash: ``StableHash/fnv1a64(_:)-(String)`` of the input as listed.
    func name(forListed relativePath: String, hash: UInt64) -> String {
        let digits = String(hash >> 32, radix: 16)
        let suffix = "-" + String(repeating: "0", count: 8 - digits.count) + digits + ".\(size).\(fileExtension)"
        var stem = stem(relativePath)
        let room = Self.maxNameBytes - suffix.utf8.count
        if stem.utf8.count > room {
            var shortened = ""
            for character in stem {
                guard shortened.utf8.count + character.utf8.count <= room else { break }
                shortened.append(character)
            }
            stem = shortened
        }
        return stem + suffix
    }
}
