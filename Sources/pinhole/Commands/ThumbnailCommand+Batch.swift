import Foundation
import Pinhole
import PinholeBench
import PinholeShared

extension ThumbnailCommand {
    /// One unit of a batch run, as queued between the reader of the inputs and the workers.
    enum BatchItem: Sendable {
        /// An input and the paths its thumbnails go to, one per size (``Configuration/sizes``).
        case input(InputFile, outputs: [String])
        /// A list line that cannot be an input (reported, not loaded).
        case invalid(ThumbnailReport.Failure)
    }

    /// Decoded thumbnails a batch run keeps in the memory cache: enough for a URL repeated a few lines apart
    /// to be decoded once, few enough that memory does not grow with the list (inputs in flight at the same
    /// time are coalesced anyway).
    static let batchMemoryCacheCount = 32

    /// Runs a batch: inputs stream from the list (or the arguments) through a ``BoundedQueue`` to
    /// ``Configuration/jobs`` + ``Configuration/readAhead`` workers (decodes at once stay at `jobs`), each result
    /// goes to `reporter` as it finishes, and nothing per input is kept, so memory stays flat however many inputs
    /// there are.
    ///
    /// - A reader task reads the list (``InputListReader``), drops the inputs of other shards
    ///   (``Configuration/shard``), names each output (``OutputNaming/name(forListed:hash:)``) and queues it;
    ///   it waits while the queue is full.
    /// - Each worker takes the next input; with ``Configuration/skipsExisting`` an input whose output is
    ///   already whole (``OutputCompleteness``) is reported as skipped; otherwise it is loaded through the
    ///   pipeline, encoded and written atomically (``FileAccess/write(_:to:)``), then reported.
    ///
    /// - Parameters:
    ///   - reporter: receives one ``BatchRecord`` per input and holds the counters.
    ///   - countsTotal: whether to count a list file's inputs first (a quick extra read of the list), so the
    ///     progress bar can show an ETA; arguments are always counted, standard input never.
    ///   - queueCapacity: inputs read ahead of the workers; `4 × jobs` (at least 16) by default.
    /// - Returns: the counters; its ``BatchSummary/exitStatus`` is the process's.
    func runBatch(reporter: BatchReporter, countsTotal: Bool = false, queueCapacity: Int? = nil) async
        -> BatchSummary
    {
        let start = ContinuousClock.now
        var pipelineConfiguration = pipelineConfiguration()
        pipelineConfiguration.memoryCache = MemoryCache(configuration: .init(countLimit: Self.batchMemoryCacheCount))
        let pipeline = ImagePipeline(configuration: pipelineConfiguration)
        do {
            try await ioPool.run { [configuration] in try FileAccess.createDirectory(configuration.outputDirectory) }
        } catch {
            await reporter.record(BatchRecord(Self.failure(configuration.outputDirectory, error), output: nil))
            return batchSummary(reporter: reporter, pipeline: pipeline, since: start)
        }
        let queue = BoundedQueue<BatchItem>(capacity: queueCapacity ?? max(16, 4 * configuration.jobs))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await self.queueInputs(into: queue, reporter: reporter, countsTotal: countsTotal)
                queue.finish()
            }
            for _ in 0..<configuration.jobs + configuration.readAhead {
                group.addTask {
                    while let item = await queue.next() {
                        await self.process(item, pipeline: pipeline, reporter: reporter)
                    }
                }
            }
        }
        return batchSummary(reporter: reporter, pipeline: pipeline, since: start)
    }

    /// Makes (or skips) one input's thumbnail and reports it.
    private func process(_ item: BatchItem, pipeline: ImagePipeline, reporter: BatchReporter) async {
        switch item {
        case .invalid(let failure):
            await reporter.record(BatchRecord(failure, output: nil))
        case .input(let input, let outputs):
            // An input is skipped when every size of it is whole; otherwise every size is made again.
            if configuration.skipsExisting, await areComplete(outputs) {
                for output in outputs { await reporter.record(BatchRecord(skipped: input.path, output: output)) }
                return
            }
            let outcomes =
                outputs.count == 1
                ? [await thumbnail(input, to: outputs[0], pipeline: pipeline)]
                : await thumbnails(input, to: outputs, pipeline: pipeline)
            for (outcome, output) in zip(outcomes, outputs) {
                switch outcome {
                case .written(let written, _): await reporter.record(BatchRecord(written))
                case .failed(let failure): await reporter.record(BatchRecord(failure, output: output))
                }
            }
        }
    }

    /// Whether every file in `outputs` is already whole (``OutputCompleteness``).
    private func areComplete(_ outputs: [String]) async -> Bool {
        let format = configuration.format
        for output in outputs {
            let isComplete = try? await ioPool.run { OutputCompleteness.isComplete(atPath: output, format: format) }
            guard isComplete == true else { return false }
        }
        return true
    }

    /// The path of the output file `name` in the output directory.
    func outputPath(_ name: String) -> String {
        let directory = configuration.outputDirectory
        return (directory.hasSuffix("/") ? directory : directory + "/") + name
    }

    private func batchSummary(reporter: BatchReporter, pipeline: ImagePipeline, since start: ContinuousClock.Instant)
        -> BatchSummary
    {
        let counters = reporter.counters
        let metrics = pipeline.metrics
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        return BatchSummary(
            inputs: counters.finished, listed: counters.listed, succeeded: counters.succeeded,
            failed: counters.failed, skipped: counters.skipped, seconds: seconds,
            imagesPerSecond: seconds > 0 ? Double(counters.succeeded) / seconds : 0,
            peakRSSBytes: ProcessStats.peakResidentBytes(), pageFaults: ProcessStats.minorPageFaults(),
            bytesIn: metrics.bytesReceived,
            bytesOut: counters.bytesOut, jobs: configuration.jobs, size: configuration.size,
            format: configuration.format.name, outputDirectory: configuration.outputDirectory,
            shard: configuration.shard?.description, downloads: metrics.downloadsStarted,
            coalesced: metrics.coalescedJoins, memoryHits: metrics.memoryHits, diskHits: metrics.diskHits)
    }
}
