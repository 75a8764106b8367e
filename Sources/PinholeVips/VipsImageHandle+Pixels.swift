import CPinholeVips
import Pinhole

extension VipsImageHandle {
    /// Converts to 8-bit sRGB and copies the pixels out of libvips once, into a packed ``PixelImage``.
    ///
    /// 1 band → `gray8`, 3 → `rgb8`, 4 → `rgba8` (straight alpha); grey with alpha becomes `rgba8`.
    /// This is where the decode actually runs (libvips is lazy), so truncation errors surface here; `interruption`
    /// stops it at the next tile (the copy then fails with libvips' "killed" message).
    func pixelImage(failure: (String) -> PinholeError, interruption: DecodeInterruption? = nil) throws -> PixelImage {
        let srgb = try VipsImageHandle.make(failure: failure) { CPinholeVips_to_srgb8(pointer, $0) }
        let pixelFormat: PixelImage.PixelFormat
        switch srgb.bands {
        case 1: pixelFormat = .gray8
        case 3: pixelFormat = .rgb8
        case 4: pixelFormat = .rgba8
        default: throw failure("unexpected band count \(srgb.bands) after sRGB conversion")
        }
        let (width, height) = (srgb.width, srgb.height)
        let count = width * height * pixelFormat.bytesPerPixel
        var status: Int32 = -1
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = CPinholeVips_copy_pixels_interruptible(
                srgb.pointer, buffer.baseAddress, count, interruption?.pointer)
            initialized = status == 0 ? count : 0
        }
        guard status == 0 else { throw failure(Vips.takeErrorMessage()) }
        return PixelImage(width: width, height: height, pixelFormat: pixelFormat, pixels: pixels)
    }

    /// A libvips image holding a copy of `image`'s pixels (rows repacked when `bytesPerRow` has padding).
    static func copying(_ image: PixelImage, failure: (String) -> PinholeError) throws -> VipsImageHandle {
        let rowBytes = image.width * image.pixelFormat.bytesPerPixel
        var packed: [UInt8]
        if image.bytesPerRow == rowBytes {
            packed = image.pixels
        } else {
            packed = []
            packed.reserveCapacity(rowBytes * image.height)
            for row in 0..<image.height {
                let start = row * image.bytesPerRow
                packed.append(contentsOf: image.pixels[start..<start + rowBytes])
            }
        }
        let count = rowBytes * image.height
        return try packed.withUnsafeBytes { bytes throws in
            try VipsImageHandle.make(failure: failure) {
                CPinholeVips_image_from_pixels(
                    bytes.baseAddress, count, Int32(image.width), Int32(image.height),
                    Int32(image.pixelFormat.bytesPerPixel), $0)
            }
        }
    }

    /// Flattens alpha onto `background` (RGB); returns `self` when there is no alpha.
    func flattened(onto background: PixelImage.RGBA, failure: (String) -> PinholeError) throws
        -> VipsImageHandle
    {
        guard bands == 2 || bands == 4 else { return self }
        let colour: [Double] =
            bands == 2 ? [Double(background.r)] : [Double(background.r), Double(background.g), Double(background.b)]
        return try VipsImageHandle.make(failure: failure) { out in
            CPinholeVips_flatten(pointer, colour, Int32(colour.count), out)
        }
    }
}
