/// One file `pinhole thumbnail` will try to make a thumbnail of.
struct InputFile: Sendable, Hashable {
    /// The path as the user would recognise it: the INPUT as typed, joined with the path found under it.
    let path: String
    /// The path relative to the INPUT it was found under (the file name for a file given by name), with `/`
    /// separators; output names derive from it.
    let relativePath: String
    /// Whether the file was named on the command line (a non-image is then an error) rather than found in a
    /// directory (a non-image is then skipped).
    let isExplicit: Bool
}
