import Foundation
import Pinhole
import PinholeVips

#if PINHOLE_FUZZ
    import Glibc
#endif

/// libFuzzer target for the decode path: arbitrary bytes through sniffing, the container checks, the header
/// checks, ``VipsDecoder`` with and without its TurboJPEG fast path, and for JPEGs the progressive scan filter (both
/// rules), the DC-only 1/8 decode against the whole-file one and the 1/4 decode without last-bit refinements
/// against TurboJPEG's (synchronously, so a run is single-threaded and repeatable).
///
/// Built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address` and `-DPINHOLE_FUZZ`: libFuzzer then supplies
/// `main` and calls ``fuzzOneInput(_:_:)`` for every input. Built without that flag (the ordinary `swift build`),
/// the same target is a replayer: `PinholeFuzz FILE…` runs each file through the same checks once, which is how
/// a crash input is reproduced without the fuzzer.
///
/// Any failure other than a typed ``PinholeError``, or a result that breaks the decoder's contract, stops the
/// process (`fatalError`), which libFuzzer reports as a crash with the input saved.
enum FuzzHarness {
    /// Limits small enough to keep one execution short: 4 megapixels per frame, 50 frames, 64 px thumbnails.
    static let thumbnailOptions = DecodingOptions(
        thumbnail: ThumbnailOptions(maxPixelSize: 64), maxPixelCount: 4_000_000, maxFrameCount: 50)

    /// The decoder with and without its JPEG fast path.
    static let decoders = [VipsDecoder(jpegFastPath: true), VipsDecoder(jpegFastPath: false)]

    /// Runs one input through every entry point of the decode path and checks their contracts.
    static func run(_ data: Data) {
        let sniffed = ImageFormat.sniff(data)
        if case .image(let format) = sniffed {
            _ = VipsDecoder.truncationEvidenceForFuzzing(
                data, format: format, maxPixelCount: thumbnailOptions.maxPixelCount)
        }
        if sniffed == .image(.jpeg) { checkScanFilter(data) }
        let info: DecodedImage.SourceInfo?
        do {
            info = try VipsDecoder.readInfoSynchronously(data)
        } catch {
            expectTyped(error)
            info = nil
        }
        // The 1/8 and 1/4 decodes have no limit check of their own: only headers within the thumbnail limits get
        // there.
        if sniffed == .image(.jpeg), let info, info.width * info.height <= thumbnailOptions.maxPixelCount {
            checkFewerScansDecode(data, decode: VipsDecoder.oneEighthScaleDecode, maxDifference: 1, name: "DC-only")
            checkFewerScansDecode(
                data, decode: VipsDecoder.oneQuarterScaleDecode, maxDifference: nil, name: "without refinements")
        }
        // Both JPEG routes: the TurboJPEG fast path and libvips (the same for other formats).
        for decoder in decoders {
            do {
                let decoded = try decoder.decodeSynchronously(data, options: thumbnailOptions)
                check(decoded, header: info)
            } catch {
                expectTyped(error)
            }
        }
        _ = Vips.drainWarnings()
    }

    /// The progressive scan filter on arbitrary bytes: it never grows the data, always starts with SOI, drops
    /// nothing when no component is DC-only, and drops only what it counts.
    static func checkScanFilter(_ data: Data) {
        data.withUnsafeBytes { bytes in
            for dcOnly in [Set<UInt8>(), Set(0...255)] {
                guard let result = JPEGScanFilter.droppingACScans(of: bytes, dcOnlyComponents: dcOnly) else { continue }
                guard result.bytes.count <= bytes.count, result.bytes.starts(with: [0xFF, 0xD8]) else {
                    fatalError("scan filter made \(result.bytes.count) bytes of \(bytes.count)")
                }
                if dcOnly.isEmpty, result.droppedScans != 0 {
                    fatalError("scan filter dropped \(result.droppedScans) scans with no DC-only component")
                }
            }
            if let result = JPEGScanFilter.filtering(bytes, dropping: .lastBitACRefinements) {
                guard result.bytes.count <= bytes.count, result.bytes.starts(with: [0xFF, 0xD8]) else {
                    fatalError("refinement filter made \(result.bytes.count) bytes of \(bytes.count)")
                }
            }
        }
    }

    /// A decode from fewer scans against the whole-file decode at the same scale: when both give pixels, they are
    /// the same size and format, and differ by at most `maxDifference` levels when one is given (DC-only at 1/8 is
    /// exact; without last-bit refinements at 1/4 the pixels differ by design); either may only fail with a
    /// ``PinholeError``.
    static func checkFewerScansDecode(
        _ data: Data, decode: (Data, Bool) throws -> PixelImage?, maxDifference: Int?, name: String
    ) {
        var images: [PixelImage?] = []
        for fewerScans in [true, false] {
            do {
                images.append(try decode(data, fewerScans))
            } catch {
                expectTyped(error)
                images.append(nil)
            }
        }
        guard let fewer = images[0], let all = images[1] else { return }
        guard fewer.width == all.width, fewer.height == all.height, fewer.pixelFormat == all.pixelFormat,
            fewer.pixels.count == all.pixels.count
        else { fatalError("\(name) \(fewer.width)×\(fewer.height), whole file \(all.width)×\(all.height)") }
        guard let maxDifference else { return }
        let worst = zip(fewer.pixels, all.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
        guard worst <= maxDifference else {
            fatalError("\(name) differs from the whole-file decode by \(worst) levels")
        }
    }

    /// A decode may only fail with a ``PinholeError``.
    static func expectTyped(_ error: any Error) {
        guard error is PinholeError else { fatalError("untyped error from the decode path: \(error)") }
    }

    /// A decoded thumbnail fits the box, matches its buffer and agrees with the header read separately.
    static func check(_ decoded: DecodedImage, header: DecodedImage.SourceInfo?) {
        let image = decoded.image
        let expected = thumbnailOptions.thumbnail!.fittedSize(width: decoded.info.width, height: decoded.info.height)
        guard image.width == expected.width, image.height == expected.height else {
            fatalError("thumbnail \(image.width)×\(image.height), expected \(expected)")
        }
        guard image.width > 0, image.height > 0, image.pixels.count >= image.bytesPerRow * image.height,
            image.bytesPerRow >= image.width * image.pixelFormat.bytesPerPixel
        else { fatalError("pixel buffer does not match \(image.width)×\(image.height) \(image.pixelFormat)") }
        if let header, header != decoded.info {
            fatalError("header \(header) differs from the decode's \(decoded.info)")
        }
    }
}

#if PINHOLE_FUZZ
    /// libFuzzer's entry point: one input, always 0 (a bad input is expected; only a crash is a finding).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        FuzzHarness.run(data)
        return 0
    }

    /// The process entry point. SwiftPM links every executable with `main` aliased to `PinholeFuzz_main`, so
    /// libFuzzer's own `main` is never linked in: this one hands control to libFuzzer's driver instead (which
    /// `scripts/fuzz.sh` forces into the link with `-u LLVMFuzzerRunDriver`).
    @_cdecl("PinholeFuzz_main")
    public func fuzzMain(
        _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32 {
        typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
        typealias RunDriver =
            @convention(c) (
                UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                TestOneInput
            ) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
            fatalError("LLVMFuzzerRunDriver is not linked in (build with scripts/fuzz.sh)")
        }
        let driver = unsafeBitCast(symbol, to: RunDriver.self)
        var count = argc
        var arguments = argv
        return driver(&count, &arguments, { fuzzOneInput($0, $1) })
    }
#else
    /// The replayer: `PinholeFuzz FILE…` runs each file through the harness once and prints its outcome.
    @main
    enum FuzzReplay {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("\(path): unreadable")
                    continue
                }
                FuzzHarness.run(data)
                print("\(path): ok (\(data.count) bytes)")
            }
        }
    }
#endif
