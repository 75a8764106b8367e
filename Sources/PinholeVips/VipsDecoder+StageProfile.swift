import CPinholeVips
import CTurboJPEG
package import Foundation
package import Pinhole

extension VipsDecoder {
    /// One thumbnail's decode cut into the stages
    /// ``decodeNow(_:format:options:jpegFastPath:shortcuts:interruption:onDiagnostic:)`` runs, each callable alone
    /// so that `pinhole bench thumbnail --stages` can time it. Not API.
    ///
    /// The route is chosen as `decodeNow` chooses it (fast path eligibility, DCT scale with headroom, DC-only at
    /// 1/8, no last-bit refinements at 1/4); `Tests/PinholeVipsTests/StagedThumbnailTests.swift` checks that the
    /// stages put together give `decodeNow`'s pixels on every route. Blocking: call on a worker thread.
    package struct StagedThumbnail {
        /// Which decoder makes the pixels.
        package enum Route: String, Sendable {
            /// TurboJPEG at a DCT scale, every scan.
            case turboJPEG = "TurboJPEG"
            /// libjpeg at 1/8 from the DC scans (progressive JPEG).
            case dcOnly = "libjpeg DC-only"
            /// libjpeg at 1/4 without the last-bit AC refinement scans (progressive JPEG).
            case withoutLastBitRefinements = "libjpeg no last bit"
            /// `vips_thumbnail` (shrink-on-load where the loader has it; a JPEG at the fast path's DCT scale).
            case libvips
        }

        /// The stream a scan-filtered route decodes (opaque outside this module).
        package struct Input {
            let stream: ScanFilteredStream
        }

        /// Pixels between the decode and resize stages (opaque outside this module).
        package struct Pixels {
            let scaled: TurboJPEGDecoder.ScaledPixels
        }

        package private(set) var route: Route
        package let format: ImageFormat
        /// A progressive (SOF2) JPEG, whatever its route.
        package let isProgressiveJPEG: Bool
        private let data: Data
        private let maxPixelSize: Int
        private let header: VipsHeader
        private let layout: ThumbnailOptions.Layout
        private let shortcuts: ProgressiveShortcuts
        private var factor: tjscalingfactor
        private var bands: Int
        /// The JPEG load shrink of the libvips route (1 for other formats), as `decodeNow` picks it.
        private let jpegShrink: Int

        /// Sniffing, the libvips header read, the limit checks, the fitted box and the route: everything before
        /// the first pixel.
        ///
        /// - Throws: the ``PinholeError`` codes of ``VipsDecoder/decode(_:options:)``.
        /// - Parameter shortcuts: whether the progressive shortcuts may be taken (`true`: both, as by default).
        package init(_ data: Data, maxPixelSize: Int, shortcuts: Bool = true) throws {
            let shortcuts = shortcuts ? ProgressiveShortcuts.all : .none
            self.shortcuts = shortcuts
            self.data = data
            self.maxPixelSize = maxPixelSize
            format = try VipsDecoder.sniffedFormat(data)
            isProgressiveJPEG = format == .jpeg && JPEGMarkers(data)?.frameType == 0xC2
            try Vips.ensureInitialized()
            header = try VipsDecoder.readHeader(data, format: format)
            let thumbnail = ThumbnailOptions(maxPixelSize: maxPixelSize)
            try header.checkLimits(DecodingOptions(thumbnail: thumbnail))
            layout = VipsDecoder.layout(thumbnail, header: header)
            jpegShrink = VipsDecoder.libvipsJPEGShrink(
                format: format, options: DecodingOptions(thumbnail: thumbnail), header: header, layout: layout,
                jpegFastPath: true)
            factor = tjscalingfactor(num: 1, denom: 1)
            bands = 3
            route = .libvips
            guard format == .jpeg, VipsDecoder.takesOnFastPath(layout), VipsDecoder.isJPEGFastPathEligible(data),
                let decoder = try? TurboJPEGDecoder(),
                let jpeg = data.withUnsafeBytes({ decoder.header($0) })
            else { return }
            let covered = VipsDecoder.covered(layout.resized)
            let storedBox = header.info.orientation >= 5 ? (covered.height, covered.width) : covered
            factor = TurboJPEGDecoder.scalingFactor(width: jpeg.width, height: jpeg.height, covering: storedBox)
            bands = jpeg.colourSpace == Int32(TJCS_GRAY.rawValue) ? 1 : 3
            let denominator = VipsDecoder.scaleDenominator(of: factor) ?? 1
            let filtered = data.withUnsafeBytes { shortcuts.stream($0, scaleDenominator: denominator) }
            route =
                switch filtered?.scaleDenominator {
                case VipsDecoder.dcOnlyScaleDenominator: .dcOnly
                case VipsDecoder.refinementSkippingScaleDenominator: .withoutLastBitRefinements
                default: .turboJPEG
                }
        }

        /// The scan filter of a scan-filtered route: the stream libjpeg decodes; `nil` on other routes (they read
        /// the data as it is).
        package func decoderInput() -> Input? {
            guard route == .dcOnly || route == .withoutLastBitRefinements,
                let denominator = VipsDecoder.scaleDenominator(of: factor)
            else { return nil }
            return data.withUnsafeBytes { shortcuts.stream($0, scaleDenominator: denominator) }.map(Input.init)
        }

        /// The decode without colour conversion: on a JPEG route entropy decoding and the inverse DCT at the route's
        /// scale (TurboJPEG: to planar YCbCr, no upsampling; DC-only: to interleaved YCbCr, upsampled); on the
        /// libvips route its loader at the shrink-on-load `decodeNow` uses, decoded into memory.
        package func decodeWithoutColour(_ input: Input?) throws {
            switch route {
            case .dcOnly, .withoutLastBitRefinements:
                guard let input else { return }
                _ = try input.stream.filtered.bytes.withUnsafeBytes { bytes in
                    try LibJPEG.decode(
                        bytes, scaleDenominator: input.stream.scaleDenominator, bands: bands,
                        width: input.stream.frame.outputWidth, height: input.stream.frame.outputHeight,
                        convertsColour: false)
                }
            case .turboJPEG:
                let decoder = try TurboJPEGDecoder()
                try data.withUnsafeBytes { bytes in
                    guard let jpeg = decoder.header(bytes) else { return }
                    try decoder.decodeWithoutColour(bytes, header: jpeg, factor: factor)
                }
            case .libvips:
                let status = data.withUnsafeBytes { CPinholeVips_decode_only($0.baseAddress, $0.count, loadOptions) }
                guard status == 0 else {
                    throw VipsDecoder.decodingError(
                        Vips.takeErrorMessage(), format: format, data: data, interruption: nil)
                }
            }
        }

        /// The scaled decode of a JPEG route (entropy decoding, inverse DCT, upsampling, YCbCr → RGB); `nil` on the
        /// libvips route, which decodes inside ``finish(_:)``.
        package func decode(_ input: Input?) throws -> Pixels? {
            switch route {
            case .dcOnly, .withoutLastBitRefinements:
                guard let input else { return nil }
                return Pixels(scaled: try VipsDecoder.scanFilteredDecode(input.stream, bands: bands).pixels)
            case .turboJPEG:
                let decoder = try TurboJPEGDecoder()
                return data.withUnsafeBytes { bytes in
                    guard let jpeg = decoder.header(bytes),
                        let scaled = decoder.decode(bytes, header: jpeg, factor: factor, grey: bands == 1)
                    else { return nil }
                    return Pixels(scaled: scaled)
                }
            case .libvips:
                return nil
            }
        }

        /// Whether the libvips route converts colour through ICC profiles (an embedded profile, or CMYK).
        package var convertsColourWithProfiles: Bool {
            route == .libvips && header.colourProfiles.export != nil
        }

        /// The loader options of the libvips route's shrink-on-load: JPEG `shrink` as `decodeNow` picks it
        /// (VipsDecoder+JPEGShrink.swift), WebP `scale` as `vips_thumbnail` does (libvips 8.14 `thumbnail.c`), none
        /// for others.
        private var loadOptions: String {
            switch format {
            case .jpeg:
                return "shrink=\(jpegShrink)"
            case .webp:
                return "scale=\(header.webPLoadScale(for: layout))"
            default:
                return ""
            }
        }

        /// The resize of a JPEG route (lanczos3 to the box, EXIF rotation, crop, copy out); on the libvips route
        /// the whole `vips_thumbnail_buffer` run (decode, colour, resize, rotation, crop) as `decodeNow` makes it.
        package func finish(_ pixels: Pixels?) throws -> PixelImage {
            if let pixels {
                return try VipsDecoder.resize(pixels.scaled, orientation: header.info.orientation, layout: layout)
            }
            return try VipsDecoder.thumbnail(
                data, format: format, header: header, layout: layout, failOn: "fail_on=truncated", interruption: nil,
                jpegShrink: jpegShrink)
        }

        /// The libvips route's `vips_thumbnail_buffer` run without colour profiles (what ``finish(_:)`` costs
        /// without its ICC transforms).
        package func finishWithoutColourProfiles() throws {
            _ = try VipsDecoder.thumbnail(
                data, format: format, header: header, layout: layout, failOn: "fail_on=truncated", interruption: nil,
                withoutProfiles: true, jpegShrink: jpegShrink)
        }
    }
}
