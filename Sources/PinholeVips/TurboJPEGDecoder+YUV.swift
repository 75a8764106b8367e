import CTurboJPEG
import Pinhole

extension TurboJPEGDecoder {
    /// Decodes the JPEG in `bytes` at `factor` into planar Y, Cb, Cr (`tjDecompressToYUV2`: entropy decoding and
    /// the inverse DCT, no upsampling, no colour conversion) and throws the planes away. For the stage profile of
    /// `pinhole bench thumbnail --stages`, which times colour conversion as the difference to
    /// ``decode(_:header:factor:grey:)``.
    ///
    /// - Throws: ``PinholeError/Code/decodingFailed`` with TurboJPEG's message (warnings are ignored).
    func decodeWithoutColour(_ bytes: UnsafeRawBufferPointer, header: Header, factor: tjscalingfactor) throws {
        let width = Self.scaled(header.width, factor)
        let height = Self.scaled(header.height, factor)
        let size = Int(tjBufSizeYUV2(Int32(width), 1, Int32(height), header.subsampling))
        guard size > 0 else { throw PinholeError(.decodingFailed, "TurboJPEG: no YUV size for this JPEG") }
        var planes = [UInt8](repeating: 0, count: size)
        let status = planes.withUnsafeMutableBufferPointer { buffer in
            tjDecompressToYUV2(
                handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), buffer.baseAddress,
                Int32(width), 1, Int32(height), 0)
        }
        guard status == 0 || tjGetErrorCode(handle) == TJERR_WARNING.rawValue else {
            throw PinholeError(.decodingFailed, "cannot decode jpeg: \(String(cString: tjGetErrorStr2(handle)))")
        }
    }
}
