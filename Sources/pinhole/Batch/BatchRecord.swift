/// What became of one input of a batch run: the object `--jsonl` prints on its own line as the input
/// finishes (keys sorted, absent keys left out).
///
/// - written: `{"bytes":5123,"height":240,"input":"a/b.jpg","output":"out/a__b-3f1c9a02.360.jpg",
///   "thumbhash":"3wcKNZqAh4eA…","width":360}`
/// - skipped (`--skip-existing`, the output was already whole): `{"input":…,"output":…,"skipped":true}`
/// - failed: `{"error":{"kind":"truncated","message":"…"},"input":…,"output":…}` (`output` is where the
///   thumbnail would have gone; absent for a list line that is not an input).
///
/// Written and failed inputs the pipeline got also carry `metrics` (``ThumbnailReport/TaskMetrics``):
/// `{"source":"network","joined":false,"totalSeconds":…,"stageSeconds":{"decode":…,"first_byte":…},…}`.
struct BatchRecord: Codable, Sendable, Equatable {
    /// Why an input failed.
    struct Failure: Codable, Sendable, Equatable {
        /// ``Pinhole/PinholeError/Code/kind`` (`not_an_image`, `truncated`, …), `invalid_input` for a list line
        /// that cannot be an input, or `unknown`.
        var kind: String
        /// What was found, for people.
        var message: String
    }

    /// The input as listed (or as found under an INPUT argument); `LIST:LINE` for an invalid list line.
    var input: String
    /// The thumbnail's path.
    var output: String?
    /// Thumbnail width in pixels (written inputs).
    var width: Int?
    /// Thumbnail height in pixels (written inputs).
    var height: Int?
    /// Size of the thumbnail file in bytes (written inputs).
    var bytes: Int?
    /// Frames in the thumbnail file (written inputs, with `--animated`).
    var frames: Int?
    /// The thumbnail's ThumbHash in base64 (written inputs, when the codecs make one).
    var thumbhash: String?
    /// `true` when the output already existed, whole, and was left alone.
    var skipped: Bool?
    /// Why the input failed.
    var error: Failure?
    /// Where the input's time went in the pipeline (written and failed inputs the pipeline got).
    var metrics: ThumbnailReport.TaskMetrics?

    /// A written thumbnail.
    init(_ output: ThumbnailReport.Output) {
        input = output.input
        self.output = output.output
        width = output.width
        height = output.height
        bytes = output.bytes
        frames = output.frames
        thumbhash = output.thumbhash
        metrics = output.metrics
    }

    /// A failed input.
    init(_ failure: ThumbnailReport.Failure, output: String?) {
        input = failure.input
        self.output = output
        error = Failure(kind: failure.kind, message: failure.message)
        metrics = failure.metrics
    }

    /// An input skipped because `output` was already whole.
    init(skipped input: String, output: String) {
        self.input = input
        self.output = output
        skipped = true
    }

    /// Whether the input failed.
    var isFailure: Bool { error != nil }
}
