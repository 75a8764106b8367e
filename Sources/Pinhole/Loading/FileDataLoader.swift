public import Foundation

/// Reads files for `file://` URLs (and plain paths given as file URLs), off the cooperative pool.
///
/// Reads run on a ``WorkerThreadPool`` (``WorkerThreadPool/io`` by default). A file larger than
/// ``maxFileBytes`` is refused before it is read. ``DataRequest/onProgress`` is called once, after the read
/// (received = expected = the file's size); the HTTP-only options of ``DataRequest`` are ignored.
public struct FileDataLoader: DataLoading {
    /// The largest file read, in bytes; 200,000,000 by default.
    public var maxFileBytes: Int
    /// When set, only files inside this directory are read: the file actually opened (its descriptor's path, every
    /// link resolved by the kernel) must lie inside the root resolved by realpath(3), else the read fails with
    /// ``PinholeError/Code/untrustedSource``. `nil` (the default) reads any file.
    public var allowedRoot: URL?
    /// The threads the blocking reads run on.
    public let pool: WorkerThreadPool

    public init(maxFileBytes: Int = 200_000_000, allowedRoot: URL? = nil, pool: WorkerThreadPool = .io) {
        self.maxFileBytes = maxFileBytes
        self.allowedRoot = allowedRoot
        self.pool = pool
    }

    /// - Throws: ``PinholeError/Code/fileNotFound``, ``PinholeError/Code/fileUnreadable`` (also for a directory,
    ///   a FIFO, a socket or a device: only regular files are read),
    ///   ``PinholeError/Code/dataTooLarge``, ``PinholeError/Code/invalidRequest`` (not a file URL), or
    ///   `CancellationError`.
    public func loadData(for request: DataRequest) async throws -> DataResponse {
        guard request.url.isFileURL else {
            throw PinholeError(.invalidRequest, "not a file URL: \(request.url.absoluteString)")
        }
        let url = request.url
        let limit = maxFileBytes
        let root = allowedRoot
        try Task.checkCancellation()
        let data = try await pool.run {
            let confinedRoot = try root.map { try UntrustedSourceGuard.resolvedRoot($0, for: url) }
            return try Self.read(url, limit: limit, confinedTo: confinedRoot)
        }
        try Task.checkCancellation()
        request.onProgress?(data.count, data.count)
        return DataResponse(data: data, url: url, metrics: TransferMetrics(bytesReceived: data.count))
    }

    /// Blocking read; runs on a worker thread.
    ///
    /// Only regular files are read (symbolic links to them are followed). A FIFO, a socket or a device is
    /// refused before a byte is read: opening a FIFO with no writer would block the worker for ever, and a device
    /// such as `/dev/zero` never ends. The file is opened with `O_NONBLOCK` (so that opening a FIFO returns at
    /// once), then checked with `fstat` on the open descriptor (so the file checked is the file read), and, with
    /// `confinedTo` (a resolved root), by the descriptor's own path.
    static func read(_ url: URL, limit: Int, confinedTo root: String? = nil) throws -> Data {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw PinholeError(.fileNotFound, "no file at \(path)") }
            throw PinholeError(.fileUnreadable, "cannot open \(path): \(String(cString: strerror(code)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        if let root {
            guard let opened = ConfinedPath.path(of: descriptor), ConfinedPath.isInside(opened, root: root) else {
                throw PinholeError(
                    .untrustedSource,
                    "refused untrusted source \(url.absoluteString): the file opened is outside "
                        + "the allowed root \(root)")
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PinholeError(.fileUnreadable, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw PinholeError(.fileUnreadable, "\(path) is \(Self.describe(type)), not a regular file")
        }
        if Int64(status.st_size) > Int64(limit) {
            throw PinholeError(.dataTooLarge, "\(path) has \(status.st_size) bytes, over the \(limit)-byte limit")
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw PinholeError(.fileUnreadable, "cannot read \(path): \(error)", underlying: error)
        }
    }

    /// "a directory", "a FIFO"… for a `st_mode & S_IFMT` value.
    private static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a special file"
        }
    }
}
