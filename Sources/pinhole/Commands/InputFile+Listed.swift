import Foundation

extension InputFile {
    /// An input for one line of an input list: an http(s) URL, a `file:` URL or a path (relative to the
    /// current directory, or absolute).
    ///
    /// The ``path`` is the line as listed (what reports show and what shards hash). The ``relativePath``
    /// that names the output is the URL's host and path, or the path without empty, `.` and `..` components
    /// (so `./a.jpg` never names a hidden file and `../x` never leaves the output directory).
    ///
    /// - Returns: `nil` for a URL that does not parse or has no host, and for a URL of another scheme
    ///   (`ftp://…`): the run reports those as `invalid_input`.
    init?(listed text: String) {
        if Self.isRemote(text) {
            guard let url = URL(string: text), url.host?.isEmpty == false else { return nil }
            self.init(path: text, relativePath: InputFile(url: url).relativePath, isExplicit: true, source: url)
            return
        }
        var path = text
        if let range = text.range(of: "://") {
            guard text[..<range.lowerBound].lowercased() == "file", let url = URL(string: text), url.isFileURL
            else { return nil }
            path = url.path
        }
        let components = path.split(separator: "/").filter { $0 != "." && $0 != ".." }
        let relative = components.joined(separator: "/")
        self.init(path: text, relativePath: relative.isEmpty ? "image" : relative, isExplicit: true,
                  source: URL(fileURLWithPath: path))
    }
}
