import CPinholeJPEG
import Pinhole

/// libjpeg's own API (libjpeg-turbo, through the `CPinholeJPEG` shim, which owns every `setjmp`/`longjmp`), for
/// what TurboJPEG cannot do: decoding with block smoothing off, and asking which inverse-DCT size each component
/// gets at a scale.
///
/// Each call makes, uses and frees its own decompressor on the calling thread; nothing is shared, so calls are
/// safe from any thread. Blocking and CPU-heavy: call on a worker thread.
enum LibJPEG {
    /// What libjpeg reads from the markers before the first scan, for a decode at a given scale.
    struct Frame: Equatable {
        /// One component of the frame.
        struct Component: Equatable {
            /// `Ci` of SOF, `Cs` of SOS.
            var id: UInt8
            /// The inverse-DCT size libjpeg uses for it at the scale: 1 reads the DC coefficient only.
            var idctSize: Int
        }

        /// Output size at the scale, in pixels (stored orientation).
        var outputWidth: Int
        var outputHeight: Int
        var isProgressive: Bool
        var components: [Component]
        /// Progressive, or a baseline image whose first scan lacks a component: libjpeg buffers the whole
        /// image's coefficients, ``coefficientBytes``.
        var hasMultipleScans = false
        /// What that whole-image coefficient buffer takes, in bytes (2 bytes × 64 a block of each component).
        var coefficientBytes = 0
    }

    /// What libjpeg said while decoding: its warnings, and whether the data ended before EOI.
    struct Report {
        /// The first warning's text, or "".
        var message: String
        var warningCount: Int
        /// libjpeg warned `JWRN_JPEG_EOF` ("Premature end of JPEG file"): the data ended before its EOI marker.
        var prematureEnd: Bool

        init(_ raw: CPinholeJPEG_Report) {
            message = LibJPEG.string(raw.message)
            warningCount = Int(raw.warningCount)
            prematureEnd = raw.prematureEnd != 0
        }
    }

    /// libjpeg's header read for a decode at 1/`scaleDenominator` (1, 2, 4 or 8); `nil` when libjpeg cannot read
    /// the header (the caller then leaves the data to another path, which reports the error).
    static func frame(_ bytes: UnsafeRawBufferPointer, scaleDenominator: Int) -> Frame? {
        var raw = CPinholeJPEG_Frame()
        var report = CPinholeJPEG_Report()
        guard CPinholeJPEG_read_frame(bytes.baseAddress, bytes.count, Int32(scaleDenominator), &raw, &report) == 0
        else { return nil }
        let ids = withUnsafeBytes(of: raw.componentIDs) { Array($0.bindMemory(to: Int32.self)) }
        let sizes = withUnsafeBytes(of: raw.idctSizes) { Array($0.bindMemory(to: Int32.self)) }
        let components = (0..<min(Int(raw.componentCount), ids.count)).map {
            Frame.Component(id: UInt8(truncatingIfNeeded: ids[$0]), idctSize: Int(sizes[$0]))
        }
        return Frame(
            outputWidth: Int(raw.outputWidth), outputHeight: Int(raw.outputHeight), isProgressive: raw.progressive != 0,
            components: components, hasMultipleScans: raw.multipleScans != 0,
            coefficientBytes: Int(clamping: raw.coefficientBytes))
    }

    /// Decodes the JPEG in `bytes` at 1/`scaleDenominator` with block smoothing off, to `bands` 1 (grey) or 3
    /// (RGB, or YCbCr when `convertsColour` is `false`: for the stage profile) bytes a pixel; `width` × `height`
    /// must be the frame's output size at that scale.
    ///
    /// - Returns: the pixels (packed rows, top-left origin, stored orientation) and libjpeg's warnings. Rows past the
    ///   end of data that ends early are grey: check ``Report/prematureEnd``.
    /// - Throws: ``PinholeError/Code/truncated`` when libjpeg failed after warning that the data ended early,
    ///   ``PinholeError/Code/decodingFailed`` with libjpeg's message for any other failure.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, scaleDenominator: Int, bands: Int, width: Int, height: Int,
        convertsColour: Bool = true
    ) throws -> (pixels: [UInt8], report: Report) {
        let count = width * height * bands
        var status: Int32 = -1
        var raw = CPinholeJPEG_Report()
        let space = bands == 1 ? CPINHOLEJPEG_GREY : convertsColour ? CPINHOLEJPEG_RGB : CPINHOLEJPEG_YCBCR
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = CPinholeJPEG_decode(
                bytes.baseAddress, bytes.count, Int32(scaleDenominator), Int32(space), buffer.baseAddress, count,
                &raw)
            // libjpeg writes every row when it returns 0, warnings or not (missing data becomes grey).
            initialized = status == 0 ? count : 0
        }
        let report = Report(raw)
        guard status == 0 else {
            let message = string(raw.message)
            if report.prematureEnd {
                throw PinholeError(.truncated, "jpeg data ends early (\(message))", detectedType: "jpeg")
            }
            throw PinholeError(.decodingFailed, "cannot decode jpeg: \(message)", detectedType: "jpeg")
        }
        return (pixels, report)
    }

    /// A NUL-terminated C character array imported as a tuple, as a String.
    private static func string<Tuple>(_ tuple: Tuple) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
