public import Foundation
public import Pinhole

/// A decoder that decodes only `formats`, each by its own codec (``DecodingOptions/untrustedFormats``), for
/// sources the server trusts with addresses but not with bytes (`--allow-source`).
public struct FormatConfinedDecoder: ImageDecoding {
    let base: any ImageDecoding
    let formats: Set<ImageFormat>

    public init(_ base: any ImageDecoding, formats: Set<ImageFormat> = ImageFormat.untrustedDefault) {
        self.base = base
        self.formats = formats
    }

    public func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        try await base.decode(data, options: confined(options))
    }

    /// `options` with only this decoder's formats allowed.
    func confined(_ options: DecodingOptions) -> DecodingOptions {
        var confined = options
        confined.untrustedFormats = options.untrustedFormats.map { $0.intersection(formats) } ?? formats
        return confined
    }
}

extension FormatConfinedDecoder: AnimatedImageDecoding {
    /// The base's animation facts under the same confinement; `nil` when the base cannot animate.
    public func animationInfo(_ data: Data, options: DecodingOptions) async throws -> AnimationInfo? {
        guard let base = base as? any AnimatedImageDecoding else { return nil }
        return try await base.animationInfo(data, options: confined(options))
    }

    /// The base's frames under the same confinement.
    ///
    /// - Throws: ``PinholeError/Code/unsupportedFormat`` when the base cannot animate, and the base's errors.
    public func decodeFrames(_ data: Data, range: Range<Int>, options: DecodingOptions) async throws -> DecodedFrames {
        guard let base = base as? any AnimatedImageDecoding else {
            throw PinholeError(.unsupportedFormat, "this server's decoder cannot decode animation frames")
        }
        return try await base.decodeFrames(data, range: range, options: confined(options))
    }
}
