import CPinholeVips
import CVips
import Pinhole

/// The libvips operations behind content modes and the built-in processors, each returning a new handle
/// (libvips is lazy: the work runs when the pixels are copied out, ``pixelImage(failure:)``).
extension VipsImageHandle {
    /// Cuts ``ThumbnailOptions/Layout/output`` out of this image (which is ``ThumbnailOptions/Layout/resized``)
    /// at the layout's crop; `self` when the layout cuts nothing.
    func cropped(to layout: ThumbnailOptions.Layout, failure: (String) -> PinholeError) throws -> VipsImageHandle {
        guard let crop = layout.crop else { return self }
        return try cropped(to: layout.output, at: crop, failure: failure)
    }

    /// `vips_smartcrop` to `size` (each side ≤ this image's) placed at `crop`; a compass crop is the window at
    /// ``ThumbnailOptions/Crop/origin(width:height:fullWidth:fullHeight:)`` (`vips_extract_area`).
    func cropped(
        to size: PixelSize, at crop: ThumbnailOptions.Crop, failure: (String) -> PinholeError
    ) throws -> VipsImageHandle {
        guard size.width < width || size.height < height else { return self }
        if crop != .centre,
            let origin = crop.origin(
                width: size.width, height: size.height, fullWidth: width,
                fullHeight: height)
        {
            let window = PixelSize(width: min(size.width, width), height: min(size.height, height))
            return try VipsImageHandle.make(failure: failure) { out in
                CPinholeVips_extract(
                    pointer, Int32(origin.x), Int32(origin.y), Int32(window.width), Int32(window.height), out)
            }
        }
        return try VipsImageHandle.make(failure: failure) { out in
            CPinholeVips_crop(pointer, Int32(size.width), Int32(size.height), crop.vipsInteresting, out)
        }
    }

    /// Scales to exactly `size` (lanczos3, as `vips_thumbnail`); `self` when already that size.
    func resized(to size: PixelSize, failure: (String) -> PinholeError) throws -> VipsImageHandle {
        guard size.width != width || size.height != height else { return self }
        return try VipsImageHandle.make(failure: failure) { out in
            CPinholeVips_resize(pointer, Int32(size.width), Int32(size.height), out)
        }
    }

    /// Transparent corners of `radius` pixels (an alpha band is added, or the existing one is multiplied).
    func roundedCorners(radius: Double, failure: (String) -> PinholeError) throws -> VipsImageHandle {
        try VipsImageHandle.make(failure: failure) { CPinholeVips_rounded_corners(pointer, radius, $0) }
    }

    /// Gaussian blur with standard deviation `sigma` pixels (> 0).
    func blurred(sigma: Double, failure: (String) -> PinholeError) throws -> VipsImageHandle {
        try VipsImageHandle.make(failure: failure) { CPinholeVips_gaussblur(pointer, sigma, $0) }
    }

    /// Luminance only (alpha kept).
    func greyscale(failure: (String) -> PinholeError) throws -> VipsImageHandle {
        try VipsImageHandle.make(failure: failure) { CPinholeVips_greyscale(pointer, $0) }
    }
}

extension ThumbnailOptions.Crop {
    /// libvips' `VipsInteresting` for this crop.
    var vipsInteresting: Int32 {
        switch self {
        case .centre: Int32(VIPS_INTERESTING_CENTRE.rawValue)
        case .attention: Int32(VIPS_INTERESTING_ATTENTION.rawValue)
        case .entropy: Int32(VIPS_INTERESTING_ENTROPY.rawValue)
        // The compass crops are cut with vips_extract_area (``cropped(to:at:failure:)``), never smartcropped.
        case .north, .south, .east, .west, .northEast, .northWest, .southEast, .southWest:
            Int32(VIPS_INTERESTING_CENTRE.rawValue)
        }
    }
}
