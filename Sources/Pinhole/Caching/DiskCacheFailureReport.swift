import Foundation
import PinholeShared

/// Reports a pipeline's failed disk-cache stores through its diagnostic handler, once per kind of failure.
///
/// A full disk or a directory that became read-only fails every later store the same way; one line per store
/// would flood a server's log under load. The kind is the error's code and the domain and code of each error
/// underneath (``kind(of:)``), so a full disk and a permission failure are each reported once, with the first
/// failure's full text. Safe from any isolation.
final class DiskCacheFailureReport: Sendable {
    private let onDiagnostic: (@Sendable (String) -> Void)?
    private let reportedKinds = Locked<Set<String>>([])

    init(onDiagnostic: (@Sendable (String) -> Void)?) {
        self.onDiagnostic = onDiagnostic
    }

    /// Reports `error`, met storing `what` (a key, for the log), unless a failure of its kind was reported.
    func storeFailed(_ what: String, _ error: any Error) {
        guard let onDiagnostic else { return }
        let kind = Self.kind(of: error)
        let isFirst = reportedKinds.withLock { $0.insert(kind).inserted }
        guard isFirst else { return }
        let cause = (error as? PinholeError)?.underlying.map { ": \($0.localizedDescription)" } ?? ""
        onDiagnostic(
            "disk cache: could not store \(what): \(error)\(cause) (later failures of this kind are not reported)")
    }

    /// The kinds reported so far; for tests.
    var kinds: Set<String> { reportedKinds.withLock { $0 } }

    /// `cache_unavailable/NSCocoaErrorDomain#640/NSPOSIXErrorDomain#28` for a full disk, for instance: the
    /// ``PinholeError`` code, then the domain and code of each error underneath (at most four levels).
    static func kind(of error: any Error) -> String {
        var parts: [String] = []
        var next: (any Error)? = error
        while let current = next, parts.count < 4 {
            if let pinhole = current as? PinholeError {
                parts.append(pinhole.code.kind)
                next = pinhole.underlying
            } else {
                let bridged = current as NSError
                parts.append("\(bridged.domain)#\(bridged.code)")
                next = bridged.userInfo[NSUnderlyingErrorKey] as? any Error
            }
        }
        return parts.joined(separator: "/")
    }
}
