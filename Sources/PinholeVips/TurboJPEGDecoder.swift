import CTurboJPEG
import Foundation
import Pinhole

/// One TurboJPEG decompressor handle (`tjInitDecompress`), freed with `tjDestroy` in `deinit`.
///
/// TurboJPEG keeps its error state per handle (`tjGetErrorCode`), so nothing mixes across decodes, unlike libvips'
/// process-global error buffer. A handle is not thread-safe: it is made, used and freed inside one
/// closure on one worker thread (not `Sendable`).
///
/// Handles are not reused across decodes: making one is a `malloc` of libjpeg's decompress struct and freeing it
/// a few `free`s, microseconds against the milliseconds of a decode, so a per-thread cache (and the invariant it
/// would need: a handle never leaves its thread, and is freed when the thread ends) was not worth having.
final class TurboJPEGDecoder {
    /// What the JPEG header says (`tjDecompressHeader3`).
    struct Header: Equatable {
        /// Stored width and height in pixels (before EXIF orientation).
        var width: Int
        var height: Int
        /// `TJSAMP` chroma subsampling.
        var subsampling: Int32
        /// `TJCS` colour space as libjpeg infers it (YCbCr, grey, RGB, CMYK, YCCK).
        var colourSpace: Int32

        /// Whether the data is YCbCr or grey: colour that decodes to sRGB or grey with no conversion.
        var isYCbCrOrGrey: Bool {
            colourSpace == Int32(TJCS_YCbCr.rawValue) || colourSpace == Int32(TJCS_GRAY.rawValue)
        }
    }

    /// Pixels decoded at a DCT scale: packed rows (stride = width × bands), top-left origin, stored orientation.
    struct ScaledPixels {
        var width: Int
        var height: Int
        /// 1 (grey) or 3 (R, G, B).
        var bands: Int
        var pixels: [UInt8]
    }

    private let handle: tjhandle

    /// - Throws: ``PinholeError/Code/decodingFailed`` when TurboJPEG cannot allocate a handle.
    init() throws {
        guard let handle = tjInitDecompress() else {
            throw PinholeError(.decodingFailed, "TurboJPEG: cannot create a decompressor")
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// Reads the header of the JPEG in `bytes`; `nil` when TurboJPEG cannot parse it.
    func header(_ bytes: UnsafeRawBufferPointer) -> Header? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colourSpace: Int32 = 0
        let status = tjDecompressHeader3(
            handle, base, UInt(bytes.count), &width, &height, &subsampling, &colourSpace)
        guard status == 0, width > 0, height > 0 else { return nil }
        return Header(width: Int(width), height: Int(height), subsampling: subsampling, colourSpace: colourSpace)
    }

    /// The smallest power-of-two TurboJPEG scaling factor (1/8, 1/4, 1/2, 1) whose result still covers `box`
    /// (stored orientation) on both sides; 1 when none does (the box is then reached by enlarging).
    ///
    /// The other factors (3/8, 5/8, 3/4 …) are left out: libjpeg-turbo has no SIMD code for them, and at 3/4 the
    /// result differed visibly from libvips' (28 dB PSNR on a 640×427 photo).
    static func scalingFactor(width: Int, height: Int, covering box: (width: Int, height: Int)) -> tjscalingfactor {
        var count: Int32 = 0
        let full = tjscalingfactor(num: 1, denom: 1)
        guard let factors = tjGetScalingFactors(&count) else { return full }
        var best = full
        for factor in UnsafeBufferPointer(start: factors, count: Int(count))
        where factor.num <= factor.denom && factor.denom.isMultiple(of: factor.num)
            && (factor.denom / factor.num).nonzeroBitCount == 1
        {
            let scaledWidth = scaled(width, factor)
            let scaledHeight = scaled(height, factor)
            guard scaledWidth >= box.width, scaledHeight >= box.height else { continue }
            if scaled(width, factor) < scaled(width, best) { best = factor }
        }
        return best
    }

    /// `TJSCALED`: a dimension scaled by `factor`, rounded up.
    static func scaled(_ dimension: Int, _ factor: tjscalingfactor) -> Int {
        (dimension * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
    }

    /// Decodes the JPEG in `bytes` at `factor`, to grey (`grey == true`) or RGB, stopping at libjpeg's first
    /// warning (`TJFLAG_STOPONWARNING`).
    ///
    /// Any warning or error (`tjGetErrorCode` on this handle: data that ends early, corrupt data, stray bytes before
    /// a marker…) returns `nil`, and the caller lets libvips decide: libvips decodes corrupt but complete data as it
    /// always has, and says whether the data ends early from its own evidence (see ``VipsDecoder``). A grey-filled
    /// partial image never leaves here. Bytes after the end-of-image marker are never read.
    /// - Returns: the pixels, or `nil` when libjpeg warned or failed.
    func decode(_ bytes: UnsafeRawBufferPointer, header: Header, factor: tjscalingfactor, grey: Bool) -> ScaledPixels? {
        let width = Self.scaled(header.width, factor)
        let height = Self.scaled(header.height, factor)
        let bands = grey ? 1 : 3
        let format = grey ? TJPF_GRAY : TJPF_RGB
        let count = width * height * bands
        var status: Int32 = -1
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = tjDecompress2(
                handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
                buffer.baseAddress, Int32(width), Int32(width * bands), Int32(height), format.rawValue,
                TJFLAG_STOPONWARNING)
            initialized = status == 0 ? count : 0
        }
        guard status == 0 else { return nil }
        return ScaledPixels(width: width, height: height, bands: bands, pixels: pixels)
    }
}
