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
        var confined = options
        confined.untrustedFormats = options.untrustedFormats.map { $0.intersection(formats) } ?? formats
        return try await base.decode(data, options: confined)
    }
}
