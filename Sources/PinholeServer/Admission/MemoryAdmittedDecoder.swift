public import Foundation
public import Pinhole
public import PinholeVips

/// A decoder whose every decode first reserves, in an ``AdmissionController``'s memory budget, the bytes libvips
/// is estimated to hold for it (``PinholeVips/VipsDecoder/estimatedMemory(of:options:)``, from the header), and
/// holds them until the decode returns.
///
/// The header is read with the decode's own options, so wrap this one in a ``FormatConfinedDecoder``: untrusted
/// bytes then meet only their format's loader, for the estimate as for the decode.
///
/// - Throws: what the estimate and the decode throw, and ``AdmissionError`` (a decode that alone exceeds the
///   budget, or that waited past the queue timeout).
public struct MemoryAdmittedDecoder: ImageDecoding {
    let decoder: VipsDecoder
    let admission: AdmissionController

    public init(_ decoder: VipsDecoder, admission: AdmissionController) {
        self.decoder = decoder
        self.admission = admission
    }

    public func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        let bytes = try await decoder.estimatedMemory(of: data, options: options)
        try Task.checkCancellation()
        return try await admission.withMemory(bytes) {
            try await decoder.decode(data, options: options)
        }
    }
}

extension MemoryAdmittedDecoder: AnimatedImageDecoding {
    /// The animation facts (a header read: nothing reserved).
    public func animationInfo(_ data: Data, options: DecodingOptions) async throws -> AnimationInfo? {
        try await decoder.animationInfo(data, options: options)
    }

    /// The frames of `range`, decoded once the memory of the whole run is reserved (the loader's and every
    /// frame's output: ``PinholeVips/VipsDecoder/estimatedMemory(of:options:frames:)``), held until they return.
    ///
    /// - Throws: what the estimate and the decode throw, and ``AdmissionError``.
    public func decodeFrames(_ data: Data, range: Range<Int>, options: DecodingOptions) async throws -> DecodedFrames {
        let bytes = try await decoder.estimatedMemory(of: data, options: options, frames: range.count)
        try Task.checkCancellation()
        return try await admission.withMemory(bytes) {
            try await decoder.decodeFrames(data, range: range, options: options)
        }
    }
}
