import Foundation
import PinholeShared

/// Reports a pipeline's failed disk-cache stores through its diagnostic handler, once per kind of failure until
/// a store succeeds again.
///
/// A full disk or a directory that became read-only fails every later store the same way; one line per store
/// would flood a server's log under load. The kind is the error's code and the domain and code of each error
/// underneath (``kind(of:)``), so a full disk and a permission failure are each reported once, with the first
/// failure's full text. A store that succeeds after failures says so in one line and re-arms the report: a disk
/// that fills again next week is reported again. A kind is reported at most once per ``minimumInterval``, so a
/// disk so nearly full that small entries fit and large ones fail gives two lines a minute, not two a store.
/// Safe from any isolation.
final class DiskCacheFailureReport: Sendable {
    private let onDiagnostic: (@Sendable (String) -> Void)?
    /// The shortest time between two reports of one kind.
    let minimumInterval: Duration
    private let state = Locked(State())

    private struct State {
        /// Kinds reported since the last successful store.
        var unresolved: Set<String> = []
        /// When each kind was last reported.
        var lastReported: [String: ContinuousClock.Instant] = [:]
    }

    /// - Parameter minimumInterval: the shortest time between two reports of one kind; 60 s by default.
    init(onDiagnostic: (@Sendable (String) -> Void)?, minimumInterval: Duration = .seconds(60)) {
        self.onDiagnostic = onDiagnostic
        self.minimumInterval = minimumInterval
    }

    /// Reports `error`, met storing `what` (a key, for the log), unless a failure of its kind was reported since
    /// the last successful store or less than ``minimumInterval`` ago.
    func storeFailed(_ what: String, _ error: any Error) {
        guard let onDiagnostic else { return }
        let kind = Self.kind(of: error)
        let now = ContinuousClock.now
        let reports = state.withLock { state -> Bool in
            guard !state.unresolved.contains(kind) else { return false }
            if let last = state.lastReported[kind], now - last < minimumInterval { return false }
            state.unresolved.insert(kind)
            state.lastReported[kind] = now
            return true
        }
        guard reports else { return }
        let cause = (error as? PinholeError)?.underlying.map { ": \($0.localizedDescription)" } ?? ""
        onDiagnostic(
            "disk cache: could not store \(what): \(error)\(cause) (later failures of this kind are not reported "
                + "until a store succeeds)")
    }

    /// A store succeeded: when failures were reported since the last one, says that stores succeed again and
    /// re-arms their kinds.
    func storeSucceeded() {
        guard let onDiagnostic else { return }
        let resolved = state.withLock { state -> Int in
            defer { state.unresolved.removeAll() }
            return state.unresolved.count
        }
        guard resolved > 0 else { return }
        onDiagnostic(
            "disk cache: stores succeed again (after failures of \(resolved) kind\(resolved == 1 ? "" : "s"))")
    }

    /// The kinds reported so far; for tests.
    var kinds: Set<String> { state.withLock { Set($0.lastReported.keys) } }

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
