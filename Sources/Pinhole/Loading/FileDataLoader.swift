import Foundation

/// Reads files for `file://` URLs (and plain paths given as file URLs), off the cooperative pool.
///
/// Reads run on a ``WorkerThreadPool`` (``WorkerThreadPool/io`` by default). A file larger than
/// ``maxFileBytes`` is refused before it is read. ``DataRequest/onProgress`` is called once, after the read
/// (received = expected = the file's size); the HTTP-only options of ``DataRequest`` are ignored.
public struct FileDataLoader: DataLoading {
    /// The largest file read, in bytes; 200,000,000 by default.
    public var maxFileBytes: Int
    private let pool: WorkerThreadPool

    public init(maxFileBytes: Int = 200_000_000, pool: WorkerThreadPool = .io) {
        self.maxFileBytes = maxFileBytes
        self.pool = pool
    }

    /// - Throws: ``PinholeError/Code/fileNotFound``, ``PinholeError/Code/fileUnreadable``,
    ///   ``PinholeError/Code/dataTooLarge``, ``PinholeError/Code/invalidRequest`` (not a file URL), or
    ///   `CancellationError`.
    public func loadData(for request: DataRequest) async throws -> DataResponse {
        guard request.url.isFileURL else {
            throw PinholeError(.invalidRequest, "not a file URL: \(request.url.absoluteString)")
        }
        let url = request.url
        let limit = maxFileBytes
        try Task.checkCancellation()
        let data = try await pool.run { try Self.read(url, limit: limit) }
        try Task.checkCancellation()
        request.onProgress?(data.count, data.count)
        return DataResponse(data: data, url: url)
    }

    /// Blocking read; runs on a worker thread.
    static func read(_ url: URL, limit: Int) throws -> Data {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PinholeError(.fileNotFound, "no file at \(path)")
        }
        if isDirectory.boolValue { throw PinholeError(.fileUnreadable, "\(path) is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PinholeError(.fileUnreadable, "cannot open \(path)")
        }
        defer { try? handle.close() }
        do {
            let size = try handle.seekToEnd()
            if size > UInt64(limit) {
                throw PinholeError(.dataTooLarge, "\(path) has \(size) bytes, over the \(limit)-byte limit")
            }
            try handle.seek(toOffset: 0)
            return try handle.readToEnd() ?? Data()
        } catch let error as PinholeError {
            throw error
        } catch {
            throw PinholeError(.fileUnreadable, "cannot read \(path): \(error)", underlying: error)
        }
    }
}
