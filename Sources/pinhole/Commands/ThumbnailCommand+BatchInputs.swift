import Foundation
import Pinhole
import PinholeShared

extension ThumbnailCommand {
    /// Reads the inputs of a batch run — the list, or the INPUT arguments and the feed — and queues those of
    /// this shard, each with its output path. Returns when all are queued, the queue is finished, or the list
    /// cannot be read (reported as one failure, under the list's path).
    func queueInputs(into queue: BoundedQueue<BatchItem>, reporter: BatchReporter, countsTotal: Bool) async {
        if let list = configuration.inputList {
            await queueListedInputs(list, into: queue, reporter: reporter, countsTotal: countsTotal)
        } else {
            await queueArgumentInputs(into: queue, reporter: reporter)
        }
    }

    /// Whether the input whose stable hash is `hash` belongs to this run's shard.
    private func isInShard(_ hash: UInt64) -> Bool {
        configuration.shard?.contains(hash: hash) ?? true
    }

    private func queueListedInputs(
        _ list: String, into queue: BoundedQueue<BatchItem>, reporter: BatchReporter, countsTotal: Bool
    ) async {
        let namings = outputNamings
        do {
            if countsTotal && list != "-" {
                reporter.setTotal(try await countListedInputs(list) * namings.count)
            }
            let reader = try await InputListReader(path: list)
            defer { reader.close() }
            while let entry = try await reader.next() {
                reporter.countListed()
                guard isInShard(entry.hash) else { continue }
                guard await queue.send(item(for: entry, list: reader.name, namings: namings)) else { return }
            }
        } catch {
            await reporter.record(BatchRecord(Self.failure(list, error), output: nil))
        }
    }

    /// The inputs of this shard in the list at `path` (a read of the whole list, one chunk at a time).
    private func countListedInputs(_ path: String) async throws -> Int {
        let reader = try await InputListReader(path: path)
        defer { reader.close() }
        var count = 0
        while let entry = try await reader.next() {
            if isInShard(entry.hash) { count += 1 }
        }
        return count
    }

    private func item(for entry: InputListReader.Entry, list: String, namings: [OutputNaming]) -> BatchItem {
        switch entry {
        case .input(let text, let hash, let lineNumber):
            guard let input = InputFile(listed: text) else {
                return .invalid(
                    ThumbnailReport.Failure(
                        input: text, kind: "invalid_input",
                        message: "line \(lineNumber) of \(list) is not an http(s) URL, a file: URL or a path"))
            }
            let outputs = namings.map { outputPath($0.name(forListed: input.relativePath, hash: hash)) }
            return .input(input, outputs: outputs)
        case .invalid(let reason, _, let lineNumber):
            return .invalid(
                ThumbnailReport.Failure(
                    input: "\(list):\(lineNumber)", kind: "invalid_input",
                    message: reason))
        }
    }

    /// The INPUT arguments and the feed, collected and named exactly as a run without batch options does
    /// (names over all inputs, before sharding, so every shard names an input alike), then the shard's.
    private func queueArgumentInputs(into queue: BoundedQueue<BatchItem>, reporter: BatchReporter) async {
        var inputs: [InputFile] = []
        do {
            let local = configuration.inputs.filter { !InputFile.isRemote($0) }
            inputs = try await InputCollector(excluding: [configuration.outputDirectory], pool: ioPool).collect(local)
            inputs += configuration.inputs.filter(InputFile.isRemote).compactMap {
                URL(string: $0).map(InputFile.init(url:))
            }
        } catch {
            await reporter.record(
                BatchRecord(
                    Self.failure(configuration.inputs.joined(separator: " "), error),
                    output: nil))
        }
        if let feed = configuration.feed {
            do {
                inputs += try await feedInputs(feed)
            } catch {
                await reporter.record(BatchRecord(Self.failure(feed, error), output: nil))
            }
        }
        let namesBySize = outputNamesBySize(for: inputs.map(\.relativePath))
        reporter.countListed(inputs.count)
        let selected = inputs.indices.filter { isInShard(StableHash.fnv1a64(inputs[$0].path)) }
        reporter.setTotal(selected.count * namesBySize.count)
        for index in selected {
            let outputs = namesBySize.map { outputPath($0[index]) }
            guard await queue.send(.input(inputs[index], outputs: outputs)) else { return }
        }
    }
}
