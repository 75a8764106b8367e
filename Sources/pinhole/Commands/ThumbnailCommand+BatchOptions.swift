import Foundation

extension ThumbnailCommand.Configuration {
    /// The options of batch runs: streamed inputs, shards, resume, JSON lines.
    static let batchOptions: [OptionSpec] = [
        .value(
            "--input-list", "FILE",
            help: "Read the inputs from FILE ('-': standard input), one path or "
                + "http(s) URL per line, as the run goes: memory stays flat however long the list. Not with INPUT "
                + "arguments or --feed."),
        .value(
            "--shard", "I/N",
            help: "Take only the inputs whose stable hash (FNV-1a 64 of the path or URL as "
                + "given) modulo N is I (0 <= I < N); N processes with 0/N ... (N-1)/N cover every input once. "
                + "auto/N takes I from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID minus "
                + "SLURM_ARRAY_TASK_MIN (Slurm job array)."),
        .flag(
            "--skip-existing",
            help: "Leave an input alone when its output file already exists and is whole "
                + "(ends where its format says it ends), so a killed run restarted with the same arguments resumes."),
        .flag(
            "--jsonl",
            help: "Print one JSON object per input on stdout as it finishes (input, output, width, "
                + "height, bytes, thumbhash; or skipped; or error {kind, message}), then one summary line "
                + "{\"summary\": {...}}."),
    ]

    /// Whether the run is a batch run: inputs stream through, results are reported as they finish, and no
    /// per-input list is kept (``ThumbnailCommand/runBatch(reporter:countsTotal:queueCapacity:)``).
    var isBatch: Bool {
        inputList != nil || shard != nil || skipsExisting || jsonLines
    }

    /// Reads the batch options from `parsed` and checks they fit with the rest.
    ///
    /// - Throws: ``UsageError`` for a malformed `--shard`, `--input-list` with INPUT arguments or `--feed`,
    ///   `--json` with `--jsonl`, and `--contact-sheet` in a batch run.
    mutating func parseBatchOptions(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        inputList = parsed.string("--input-list")
        shard = try parsed.string("--shard").map { text throws(UsageError) in
            try ShardSelector.parse(text, environment: environment)
        }
        skipsExisting = parsed.has("--skip-existing")
        jsonLines = parsed.has("--jsonl")
        if inputList != nil && (!inputs.isEmpty || feed != nil) {
            throw UsageError("--input-list takes the place of INPUT arguments and --feed; give one or the other")
        }
        if json && jsonLines { throw UsageError("--json and --jsonl both print on stdout; choose one") }
        if isBatch && contactSheet != nil {
            throw UsageError(
                "--contact-sheet needs every thumbnail in memory; it cannot be combined with "
                    + "--input-list, --shard, --skip-existing or --jsonl")
        }
    }

    /// The help's section on batch runs.
    static let batchHelp: [String] = [
        "",
        "BATCH RUNS:",
        "  --input-list, --shard, --skip-existing or --jsonl make a batch run: inputs stream through a",
        "  bounded queue and each result is reported as it finishes (--jsonl lines, or failures on",
        "  stderr), so no per-input list is kept. At the end --json prints counters only (inputs, listed,",
        "  succeeded, failed, skipped, ...), without the outputs and errors arrays; --jsonl ends with",
        "  {\"summary\": {...}}, the same counters. Outputs are written to a temporary file and renamed, so",
        "  a killed run never leaves a partial file under an output name. Names of listed inputs carry 8",
        "  hex digits of the input's hash (photos/a.jpg -> photos__a-3f1c9a02.360.jpg), so every shard",
        "  and every restart agrees on them without seeing the other inputs.",
    ]
}
