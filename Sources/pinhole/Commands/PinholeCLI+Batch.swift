import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension PinholeCLI {
    /// Runs a batch `pinhole thumbnail` (see ``ThumbnailCommand/Configuration/isBatch``) and prints as it goes:
    /// `--jsonl` lines on stdout, or failures on stderr; then the summary (`--jsonl`: one line, `--json`: one
    /// object, else the human text). The progress bar is drawn on stderr when it is a terminal (and stdout
    /// is not the same terminal printing `--jsonl` lines).
    func batch(_ configuration: ThumbnailCommand.Configuration) async -> Int32 {
        let command = ThumbnailCommand(configuration: configuration, codecs: makeCodecs(configuration.jobs))
        let showsBar = isatty(STDERR_FILENO) == 1 && !(configuration.jsonLines && isatty(STDOUT_FILENO) == 1)
        let style: BatchReporter.Style =
            configuration.jsonLines
            ? .jsonLines
            : configuration.json ? .quiet : .failureLines
        let reporter = BatchReporter(style: style, progressBar: ProgressBar(isEnabled: showsBar))
        let summary = await command.runBatch(reporter: reporter, countsTotal: showsBar)
        await reporter.finishProgress()
        do {
            if configuration.jsonLines || configuration.json {
                var data = try summary.json(pretty: configuration.json)
                data.append(UInt8(ascii: "\n"))
                await reporter.writeStandardOutput(data)
            } else {
                await reporter.writeStandardOutput(Data((summary.text + "\n").utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("pinhole: cannot encode the summary: \(error)\n".utf8))
            return 1
        }
        return summary.exitStatus
    }
}
