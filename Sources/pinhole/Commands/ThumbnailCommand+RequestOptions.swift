import Foundation
import Pinhole

extension ThumbnailCommand.Configuration {
    /// What `--width/--height/--fit/--fill/--crop/--scale/--header/--offline` ask of every request.
    struct RequestFlags: Sendable, Equatable {
        /// The box in pixels (points × `--scale`) when `--width` or `--height` was given; `nil` for `--size`.
        var box: PixelSize?
        /// `--fit` (the default), `--fill`, or `--fill --crop ANCHOR`.
        var contentMode: ThumbnailOptions.ContentMode = .aspectFit
        /// `--scale`: pixels per point; 1 by default.
        var scale: Double = 1
        /// `--header 'Name: value'`, in the order given.
        var headers: [String: String] = [:]
        /// `--offline`: answer from the disk cache only.
        var offline = false
        /// `--animated`: an animated source (GIF, animated WebP) gives an animated thumbnail.
        var animated = false

        /// The thumbnail box: ``box``, or a `size` × `size` square (`size` in pixels, `--scale` already applied).
        func thumbnail(size: Int) -> ThumbnailOptions {
            ThumbnailOptions(size: box ?? PixelSize(width: size, height: size), contentMode: contentMode)
        }

        /// The request for `url`: its thumbnail, headers and offline option.
        func request(for url: URL, size: Int) -> ImageRequest {
            var options: ImageRequest.Options = offline ? [.returnCacheDataDontLoad] : []
            if animated { options.insert(.animated) }
            return ImageRequest(url: url, thumbnail: thumbnail(size: size), options: options, headers: headers)
        }

        /// What output names carry after the size: `""` for a square fit box (`a.360.jpg`), else the box and the
        /// mode (`a.200.200x100-fill-attention.jpg`).
        func nameLabel(size: Int) -> String {
            let options = thumbnail(size: size)
            guard options.contentMode != .aspectFit || options.size.width != options.size.height else { return "" }
            return "\(options.size.width)x\(options.size.height)-\(options.contentMode)."
        }

        static func pixels(_ points: Int, _ scale: Double) -> Int {
            max(1, min(16384, Int((Double(points) * scale).rounded())))
        }
    }

    /// What output names end with after `.SIZE.`: the box and mode label (if any), then the file extension
    /// (`jpg`, or `200x100-fill-attention.jpg`).
    var outputNameExtension: String { request.nameLabel(size: size) + fileExtension }

    static let requestOptions: [OptionSpec] = [
        .value(
            "--width", "POINTS",
            help: "Width of the thumbnail box (times --scale: pixels), 1-16384. With "
                + "--height: a box instead of --size; alone: fit to this width."),
        .value(
            "--height", "POINTS",
            help: "Height of the thumbnail box (times --scale: pixels), 1-16384; alone: "
                + "fit to this height."),
        .flag("--fit", help: "Keep the whole image inside the box, aspect kept (the default)."),
        .flag(
            "--fill",
            help: "Cover the box, aspect kept; with --crop, cut to exactly the box. Needs --width "
                + "and --height."),
        .value(
            "--crop", "ANCHOR",
            help: "With --fill: cut to exactly the box, keeping the centre, or the most "
                + "interesting region (attention: edges, skin, saturation; entropy). centre, attention or entropy."),
        .value("--scale", "S", help: "Pixels per point for --size, --width and --height, 0.1-16. Default: 1."),
        .value(
            "--header", "'NAME: VALUE'",
            help: "An HTTP header sent with every URL (repeatable), e.g. "
                + "'Authorization: Bearer T'. Authorization and Cookie values join the cache key, hashed."),
        .flag(
            "--animated",
            help: "Keep animation: a GIF or animated WebP gives an animated thumbnail (needs --format webp or gif), "
                + "every frame shrunk on load and laid out as the still would be, durations and loop count kept, "
                + "within the frame and pixel limits; a still image gives a still. The JSON lists each output's "
                + "frames. One --size only."),
        .flag(
            "--offline",
            help: "Load nothing: answer from the --cache-dir disk cache only (stale entries "
                + "included); an input it does not hold fails with kind not_cached."),
    ]

    /// Reads the request flags from `parsed` into ``request``, and sets ``size`` to the box's longest side in pixels
    /// (`--size` times `--scale` when no box was given).
    ///
    /// - Throws: ``UsageError`` for a bad number, `--fill` without both sides, `--crop` without `--fill`,
    ///   `--fit` with `--fill`, `--size` with `--width`/`--height`, a header that is not `Name: value`, or
    ///   `--animated` with a format that cannot animate.
    mutating func parseRequestOptions(_ parsed: ParsedArguments) throws(UsageError) {
        var flags = RequestFlags()
        if let text = parsed.string("--scale") {
            guard let scale = ParsedArguments.plainDecimal(text), scale.isFinite, (0.1...16).contains(scale) else {
                throw UsageError("--scale must be a number between 0.1 and 16, not '\(text)'")
            }
            flags.scale = scale
        }
        let fill = parsed.has("--fill")
        if fill && parsed.has("--fit") { throw UsageError("--fit and --fill exclude each other") }
        if parsed.string("--crop") != nil {
            guard fill else { throw UsageError("--crop needs --fill") }
            let chosen = try parsed.choice(
                "--crop", default: "centre", in: ["centre", "center", "attention", "entropy"])
            flags.contentMode = .fill(
                crop: ThumbnailOptions.Crop(rawValue: chosen == "center" ? "centre" : chosen) ?? .centre)
        } else if fill {
            flags.contentMode = .aspectFill
        }
        let width = parsed.string("--width") == nil ? nil : try parsed.integer("--width", default: 0, in: 1...16384)
        let height = parsed.string("--height") == nil ? nil : try parsed.integer("--height", default: 0, in: 1...16384)
        if width != nil || height != nil {
            guard parsed.string("--size") == nil else { throw UsageError("--size excludes --width and --height") }
            guard !fill || (width != nil && height != nil) else {
                throw UsageError("--fill needs --width and --height")
            }
            flags.box = PixelSize(
                width: RequestFlags.pixels(width ?? 16384, width == nil ? 1 : flags.scale),
                height: RequestFlags.pixels(height ?? 16384, height == nil ? 1 : flags.scale))
            size = max(flags.box?.width ?? size, flags.box?.height ?? size)
        } else if fill {
            throw UsageError("--fill needs --width and --height")
        } else {
            size = RequestFlags.pixels(size, flags.scale)
        }
        for header in parsed.strings("--header") {
            guard let colon = header.firstIndex(of: ":") else {
                throw UsageError("--header needs 'Name: value', not '\(header)'")
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0.isNewline }),
                !value.contains(where: \.isNewline)
            else { throw UsageError("--header needs 'Name: value', not '\(header)'") }
            flags.headers[name] = value
        }
        flags.animated = parsed.has("--animated")
        if flags.animated && format != .webp && format != .gif {
            throw UsageError("--animated needs --format webp or gif (\(format.name) cannot animate)")
        }
        flags.offline = parsed.has("--offline")
        if flags.offline && cacheDirectory == nil { throw UsageError("--offline needs --cache-dir") }
        request = flags
    }
}
