import Foundation

extension InputFile {
    /// An input for one line of an input list: an http(s) URL, a `file:` URL or a path (relative to the
    /// current directory, or absolute).
    ///
    /// The ``path`` is the line as listed (what reports show and what shards hash). The ``relativePath``
    /// that names the output is the URL's host and path, or the path without empty, `.` and `..` components
    /// (so `./a.jpg` never names a hidden file and `../x` never leaves the output directory).
    ///
    /// - Returns: `nil` for what ``InputArgument`` finds invalid (a URL that does not parse, has no host or a bad
    ///   port, a URL of another scheme such as `ftp://…`): the run reports those as `invalid_input`.
    init?(listed text: String) {
        let path: String
        switch InputArgument(text) {
        case .invalid:
            return nil
        case .remote(let url):
            self.init(path: text, relativePath: InputFile(url: url).relativePath, isExplicit: true, source: url)
            return
        case .path(let listed):
            path = listed
        }
        let components = path.split(separator: "/").filter { $0 != "." && $0 != ".." }
        let relative = components.joined(separator: "/")
        self.init(
            path: text, relativePath: relative.isEmpty ? "image" : relative, isExplicit: true,
            source: URL(fileURLWithPath: path))
    }
}
