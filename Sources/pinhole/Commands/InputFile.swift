import Foundation

/// One image `pinhole thumbnail` will try to make a thumbnail of: a local file, or an http(s) URL (given on the
/// command line or found in a JSON Feed).
struct InputFile: Sendable, Hashable {
    /// The input as the user would recognise it: the INPUT as typed joined with the path found under it, or the
    /// URL.
    let path: String
    /// The path relative to the INPUT it was found under (the file name for a file given by name; host and path
    /// for a URL), with `/` separators; output names derive from it.
    let relativePath: String
    /// Whether the input was named on the command line or in a feed (a non-image is then an error) rather than
    /// found in a directory (a non-image is then skipped).
    let isExplicit: Bool
    /// Where the pipeline loads it from: a `file` URL or an `http(s)` URL.
    let source: URL
    /// The file's size in bytes when the collector saw it, `nil` for a URL or a file it could not size. A run
    /// starts the largest inputs first (``LargestFirstOrder``).
    let byteCount: Int?

    init(path: String, relativePath: String, isExplicit: Bool, source: URL? = nil, byteCount: Int? = nil) {
        self.path = path
        self.relativePath = relativePath
        self.isExplicit = isExplicit
        self.source = source ?? URL(fileURLWithPath: path)
        self.byteCount = byteCount
    }

    /// An input for an http(s) URL; its relative path is the host and path (`img.example/a/b.jpg`).
    init(url: URL) {
        let path = url.path.isEmpty || url.path == "/" ? "/image" : url.path
        self.init(path: url.absoluteString, relativePath: (url.host ?? "remote") + path, isExplicit: true, source: url)
    }

    /// Whether an INPUT argument names an http(s) URL rather than a path.
    static func isRemote(_ argument: String) -> Bool {
        let lowered = argument.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}
