import Foundation

/// The figures of a ``ThumbnailStages`` run (`--json` encodes them; ``text`` is the table). Milliseconds of
/// process CPU time per image.
public struct ThumbnailStagesResult: Sendable, Encodable {
    /// One thumbnail's stages, in milliseconds of CPU time.
    public struct Stages: Sendable, Encodable {
        public var read = 0.0
        public var header = 0.0
        public var scanFilter = 0.0
        /// Entropy decoding and the inverse DCT (libvips route: the loader's whole decode).
        public var decode = 0.0
        /// YCbCr → RGB (libvips route: its ICC transforms, when the image has a profile or is CMYK).
        public var colour = 0.0
        public var resize = 0.0
        public var encode = 0.0
        public var write = 0.0

        static var keyPaths: [WritableKeyPath<Stages, Double>] {
            [\.read, \.header, \.scanFilter, \.decode, \.colour, \.resize, \.encode, \.write]
        }

        /// Every stage added up.
        public var sum: Double { Self.keyPaths.reduce(0) { $0 + self[keyPath: $1] } }

        /// Each stage's median over `rounds`.
        static func median(of rounds: [Stages]) -> Stages {
            var result = Stages()
            for keyPath in keyPaths { result[keyPath: keyPath] = Samples(rounds.map { $0[keyPath: keyPath] }).median }
            return result
        }

        /// Each stage's mean over `all`.
        static func mean(of all: [Stages]) -> Stages {
            var result = Stages()
            guard !all.isEmpty else { return result }
            for keyPath in keyPaths {
                result[keyPath: keyPath] = all.reduce(0) { $0 + $1[keyPath: keyPath] } / Double(all.count)
            }
            return result
        }
    }

    /// One file's figures.
    public struct File: Sendable, Encodable {
        public var name: String
        /// "jpeg baseline", "jpeg progressive", "jpeg (libvips path)", "png", "webp" …
        public var kind: String
        /// The decoder that made its pixels (TurboJPEG, libjpeg DC-only, libjpeg no last bit, libvips).
        public var route: String
        public var stages: Stages
        /// The same work through VipsDecoder and VipsEncoder, as `pinhole thumbnail` runs it.
        public var endToEnd: Double
        /// Progressive JPEGs: decode + encode with every scan decoded (the path before issue 15) and with the
        /// progressive shortcuts (DC-only at 1/8, no last-bit AC refinements at 1/4), in ms.
        public var progressiveEveryScan: Double?
        public var progressiveFewerScans: Double?
    }

    /// The files of one kind, averaged.
    public struct Kind: Sendable, Encodable {
        public var kind: String
        public var files: Int
        /// How many files took each route.
        public var routes: [String: Int]
        public var stages: Stages
        public var endToEnd: Double
    }

    public var corpus: String
    public var size: Int
    public var quality: Int
    public var runs: Int
    /// The 1-minute load average when the run ended.
    public var loadAverage: Double
    public var files: [File]

    /// Per kind, in a fixed order (JPEG baseline, progressive, the JPEGs libvips decodes, PNG, WebP, others).
    public var kinds: [Kind] {
        let order = ["jpeg baseline", "jpeg progressive", "jpeg (libvips path)", "png", "webp"]
        let rank = { (kind: String) in (order.firstIndex(of: kind) ?? order.count, kind) }
        let names = Set(files.map(\.kind)).sorted { rank($0) < rank($1) }
        return names.map { name in
            let group = files.filter { $0.kind == name }
            return Kind(
                kind: name, files: group.count, routes: Dictionary(group.map { ($0.route, 1) }, uniquingKeysWith: +),
                stages: .mean(of: group.map(\.stages)),
                endToEnd: group.reduce(0) { $0 + $1.endToEnd } / Double(max(1, group.count)))
        }
    }

    /// Progressive JPEGs' decode + encode, every scan over fewer scans, summed over the files (nil without any).
    public var progressiveSpeedup: Double? {
        let pairs = files.compactMap { file in
            file.progressiveEveryScan.flatMap { every in file.progressiveFewerScans.map { (every, $0) } }
        }
        let fewer = pairs.reduce(0) { $0 + $1.1 }
        return pairs.isEmpty || fewer <= 0 ? nil : pairs.reduce(0) { $0 + $1.0 } / fewer
    }

    private enum CodingKeys: String, CodingKey {
        case corpus, size, quality, runs, loadAverage, files, kinds, progressiveSpeedup
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(corpus, forKey: .corpus)
        try container.encode(size, forKey: .size)
        try container.encode(quality, forKey: .quality)
        try container.encode(runs, forKey: .runs)
        try container.encode(loadAverage, forKey: .loadAverage)
        try container.encode(files, forKey: .files)
        try container.encode(kinds, forKey: .kinds)
        try container.encodeIfPresent(progressiveSpeedup, forKey: .progressiveSpeedup)
    }
}
