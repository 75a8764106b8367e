import CTurboJPEG
import Foundation
import Pinhole

/// The floor of a JPEG thumbnail on this machine, for `pinhole bench thumbnail --compare`: each file read and
/// decoded by TurboJPEG at 1/8 scale to RGB (CMYK files: to CMYK), nothing else (no orientation, no resize, no
/// encode). What any JPEG thumbnailer must at least spend.
package enum TurboJPEGFloorDecoder {
    /// Blocking: decodes `files` one after another with one handle and one reused output buffer; returns the
    /// number of pixels decoded. Call on a thread of its own.
    ///
    /// - Throws: ``PinholeError/Code/fileNotFound`` when a file cannot be read, ``PinholeError/Code/decodingFailed``
    ///   with TurboJPEG's message when one cannot be decoded.
    package static func decodeAtOneEighth(_ files: [String]) throws -> Int {
        guard let handle = tjInitDecompress() else { throw PinholeError(.decodingFailed, "tjInitDecompress failed") }
        defer { tjDestroy(handle) }
        var buffer: [UInt8] = []
        var pixels = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw PinholeError(.fileNotFound, "cannot read \(file)")
            }
            try data.withUnsafeBytes { bytes in
                let jpeg = bytes.bindMemory(to: UInt8.self)
                var width: Int32 = 0
                var height: Int32 = 0
                var subsampling: Int32 = 0
                var colourSpace: Int32 = 0
                guard
                    tjDecompressHeader3(
                        handle, jpeg.baseAddress, UInt(jpeg.count), &width, &height, &subsampling, &colourSpace) == 0
                else { throw PinholeError(.decodingFailed, "\(file): \(String(cString: tjGetErrorStr2(handle)))") }
                let scaledWidth = (Int(width) + 7) / 8
                let scaledHeight = (Int(height) + 7) / 8
                // CMYK and YCCK cannot become RGB in TurboJPEG: they are decoded to CMYK (4 bytes a pixel).
                let isCMYK = colourSpace == TJCS_CMYK.rawValue || colourSpace == TJCS_YCCK.rawValue
                let (format, bytesPerPixel) = isCMYK ? (TJPF_CMYK, 4) : (TJPF_RGB, 3)
                let needed = scaledWidth * scaledHeight * bytesPerPixel
                if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
                let status = buffer.withUnsafeMutableBufferPointer { output in
                    tjDecompress2(
                        handle, jpeg.baseAddress, UInt(jpeg.count), output.baseAddress, Int32(scaledWidth),
                        Int32(scaledWidth * bytesPerPixel), Int32(scaledHeight), format.rawValue, 0)
                }
                guard status == 0 || tjGetErrorCode(handle) == TJERR_WARNING.rawValue else {
                    throw PinholeError(.decodingFailed, "\(file): \(String(cString: tjGetErrorStr2(handle)))")
                }
                pixels += scaledWidth * scaledHeight
            }
        }
        return pixels
    }
}
