import CPinholeVips
import Foundation
import Pinhole

extension VipsHeader {
    /// Throws when the header declares more frames, or more pixels per frame or over all frames, than `options`
    /// allow.
    func checkAnimationLimits(_ options: DecodingOptions) throws {
        try checkLimits(options)
        let (total, overflow) = framePixelCount.multipliedReportingOverflow(by: info.frameCount)
        if overflow || total > options.maxAnimationPixelCount {
            throw PinholeError(
                .tooManyPixels,
                "\(info.frameCount) frames of \(info.width)×\(info.height) pixels declared; the limit over all "
                    + "frames is \(options.maxAnimationPixelCount) pixels")
        }
    }
}

extension VipsDecoder {
    /// The frames of `range` that exist, decoded; synchronous, on a worker thread (see
    /// ``decodeFrames(_:range:options:)``).
    static func decodeFramesNow(
        _ data: Data, format: ImageFormat, range: Range<Int>, options: DecodingOptions, interruption: DecodeInterruption
    ) throws -> DecodedFrames {
        let header = try readHeader(data, format: format, interruption: interruption)
        try header.checkAnimationLimits(options)
        let whole = try wholeFrames(data, format: format, declared: header.info.frameCount)
        let frames = max(0, range.lowerBound)..<min(range.upperBound, whole.count)
        guard !frames.isEmpty else {
            return DecodedFrames(frames: [], endsEarly: whole.endsEarly, wholeFrameCount: whole.count)
        }
        let layout = Self.layout(options.thumbnail, header: header)
        try header.checkResultLimits(layout, options: options)
        try interruption.throwIfStopped()
        let failure = { (message: String) in
            decodingError(message, format: format, data: data, interruption: interruption)
        }
        // The loader's option string: fail on truncation (the whole frames of a GIF cut short are read without
        // it), and WebP's shrink on load as `vips_thumbnail` picks it.
        var loadOptions = [String]()
        if let failOn = options.failOn, !whole.endsEarly { loadOptions.append(failOn) }
        let scale = header.webPLoadScale(for: layout)
        if format == .webp, scale < 1 { loadOptions.append("scale=\(scale)") }
        return try data.withUnsafeBytes { bytes in
            // `bytes` must outlive every libvips image made from it: all of them are released in this scope.
            let stack = try VipsImageHandle.make(failure: failure) { out in
                CPinholeVips_load_pages(
                    bytes.baseAddress, bytes.count, Int32(frames.lowerBound), Int32(frames.count),
                    loadOptions.joined(separator: ","), out)
            }
            let pageHeight = stack.height / frames.count
            guard pageHeight > 0, pageHeight * frames.count == stack.height else {
                throw failure("a stack of \(frames.count) frames is \(stack.height) pixels high")
            }
            var decoded = [PixelImage]()
            decoded.reserveCapacity(frames.count)
            for index in 0..<frames.count {
                try interruption.throwIfStopped()
                let frame = try VipsImageHandle.make(failure: failure) { out in
                    CPinholeVips_extract(
                        stack.pointer, 0, Int32(index * pageHeight), Int32(stack.width), Int32(pageHeight), out)
                }
                decoded.append(
                    try frame.resized(to: layout.resized, failure: failure).cropped(to: layout, failure: failure)
                        .pixelImage(failure: failure, interruption: interruption))
            }
            return DecodedFrames(frames: decoded, endsEarly: whole.endsEarly, wholeFrameCount: whole.count)
        }
    }
}
