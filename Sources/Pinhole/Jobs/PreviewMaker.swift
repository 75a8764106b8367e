import Foundation
import PinholeShared

/// Watches one download's bytes and starts a preview decode each time a new scan of a progressive JPEG has
/// arrived, one at a time (a decode still running makes later scans wait for the next chunk). Called on the
/// loader's thread: it only counts markers and starts a task, it never blocks.
///
/// The decode's task is cancelled by ``stop()`` (the download ended: finished, failed or cancelled with its data
/// job) and by ``cancelRunningDecode()`` (no waiting task wants previews any more).
final class PreviewMaker: Sendable {
    private struct State {
        var scans = ProgressiveJPEGScans()
        var previewedScans = 0
        var decoding: Task<Void, Never>?
        var stopped = false
    }

    private let pipeline: ImagePipeline
    private let key: DataJobKey
    private let context: JobContext
    private let state = Locked(State())

    init(pipeline: ImagePipeline, key: DataJobKey, context: JobContext) {
        self.pipeline = pipeline
        self.key = key
        self.context = context
    }

    /// All bytes of the download so far.
    func received(_ data: Data) {
        let wanted = pipeline.loadObservers.wantPreviews(key)
        state.withLock { state in
            state.scans.advance(data)
            guard wanted, !state.stopped, state.decoding == nil, state.scans.isProgressive == true,
                !state.scans.ended, state.scans.completeScans > state.previewedScans
            else { return }
            state.previewedScans = state.scans.completeScans
            // Made under the lock, so that `stop()` always finds it to cancel. It takes the lock itself only when
            // it ends, on its own thread.
            let (pipeline, key, context) = (self.pipeline, self.key, self.context)
            state.decoding = Task(priority: .utility) { [self] in
                await pipeline.makePreviews(from: data, key: key, context: context)
                self.state.withLock { $0.decoding = nil }
            }
        }
    }

    /// The download ended: cancels the running decode, and no other starts.
    func stop() {
        let running = state.withLock { state in
            state.stopped = true
            return state.decoding
        }
        running?.cancel()
        pipeline.loadObservers.unregister(self, for: key)
    }

    /// Cancels the running decode (its previews are no longer wanted); a later scan may start another.
    func cancelRunningDecode() {
        state.withLock { $0.decoding }?.cancel()
    }
}
