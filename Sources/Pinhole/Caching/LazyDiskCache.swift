import Foundation
import PinholeShared
import Synchronization

/// Opens the pipeline's disk cache once, on first use, and remembers a failure: an unusable directory leaves
/// the pipeline working without a disk cache, and the failure is reported once.
final class LazyDiskCache: Sendable {
    private let opening: Locked<Task<DiskCache?, Never>?>
    private let directory: URL?
    private let sizeLimit: Int
    private let onDiagnostic: (@Sendable (String) -> Void)?
    private let failure = Locked<PinholeError?>(nil)
    /// Where failed stores are reported, once per kind.
    let storeFailures: DiskCacheFailureReport

    init(directory: URL?, sizeLimit: Int, onDiagnostic: (@Sendable (String) -> Void)?) {
        self.directory = directory
        self.sizeLimit = sizeLimit
        self.onDiagnostic = onDiagnostic
        self.opening = Locked(nil)
        self.storeFailures = DiskCacheFailureReport(onDiagnostic: onDiagnostic)
    }

    /// Why the disk cache could not be opened, if it could not.
    var error: PinholeError? { failure.withLock { $0 } }

    /// The disk cache, opening it on the first call; `nil` without a directory or after a failure.
    func cache() async -> DiskCache? {
        guard let directory else { return nil }
        let task = opening.withLock { opening in
            if let opening { return opening }
            let task = Task { [self] () -> DiskCache? in
                do {
                    // One instance per directory in the process: pipelines given the same directory share it.
                    return try await DiskCache.shared(configuration: .init(directory: directory, sizeLimit: sizeLimit))
                } catch {
                    let pinholeError =
                        error as? PinholeError
                        ?? PinholeError(.cacheUnavailable, "\(directory.path): \(error)", underlying: error)
                    failure.withLock { $0 = pinholeError }
                    onDiagnostic?("disk cache unavailable, continuing without it: \(pinholeError.message)")
                    return nil
                }
            }
            opening = task
            return task
        }
        return await task.value
    }
}
