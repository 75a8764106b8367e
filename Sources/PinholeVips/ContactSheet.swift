import CPinholeVips
public import Pinhole

/// A grid of thumbnails in one image (a contact sheet), composed by libvips (`thumbnail_image`, `gravity`,
/// `arrayjoin`, `embed`).
///
/// Layout: images go left to right, then top to bottom, `columns` per row. Each is scaled down (never up)
/// to fit a `cellSize`×`cellSize` cell, keeping its aspect ratio, and centred in it. Cells are `spacing`
/// pixels apart, and the sheet has a `spacing`-pixel margin, so it is
/// `columns × cellSize + (columns + 1) × spacing` pixels wide and
/// `rows × cellSize + (rows + 1) × spacing` high. Transparent pixels are flattened onto `background`.
public enum ContactSheet {
    /// Composes `images` into one sheet.
    ///
    /// - Parameters:
    ///   - images: the pictures (any ``PixelImage`` format); at least one.
    ///   - cellSize: the side of each square cell, in pixels (≥ 1).
    ///   - columns: cells per row (≥ 1); by default the smallest count giving a square-ish grid (⌈√n⌉).
    ///   - spacing: pixels between cells and around the sheet (≥ 0); 8 by default.
    ///   - background: the colour of gaps, margins and transparent areas (its alpha is ignored); white by default.
    ///   - pool: the threads that run libvips; ``WorkerThreadPool/cpu`` by default.
    /// - Returns: an ``PixelImage/PixelFormat/rgb8`` image.
    /// - Throws: ``PinholeError`` with ``PinholeError/Code/invalidRequest`` for no images or bad sizes,
    ///   ``PinholeError/Code/decodingFailed`` when libvips fails; `CancellationError` when cancelled.
    ///   Safe from any isolation; the work runs on `pool`.
    public static func make(
        _ images: [PixelImage], cellSize: Int, columns: Int? = nil, spacing: Int = 8,
        background: PixelImage.RGBA = .init(r: 255, g: 255, b: 255), pool: WorkerThreadPool = .cpu
    ) async throws -> PixelImage {
        guard !images.isEmpty else { throw PinholeError(.invalidRequest, "a contact sheet needs at least one image") }
        let maxSide = 10_000_000  // VIPS_MAX_COORD: libvips' largest image side
        guard cellSize >= 1, cellSize <= maxSide, spacing >= 0, spacing <= maxSide, (columns ?? 1) >= 1 else {
            throw PinholeError(
                .invalidRequest,
                "bad contact sheet layout: cellSize \(cellSize), "
                    + "columns \(String(describing: columns)), spacing \(spacing)"
            )
        }
        let across = min(images.count, columns ?? Int(Double(images.count).squareRoot().rounded(.up)))
        let rows = (images.count + across - 1) / across
        let (width, widthOverflow) = (across * cellSize).addingReportingOverflow((across + 1) * spacing)
        let (height, heightOverflow) = (rows * cellSize).addingReportingOverflow((rows + 1) * spacing)
        guard !widthOverflow, !heightOverflow, width <= maxSide, height <= maxSide else {
            throw PinholeError(
                .invalidRequest, "a contact sheet of \(across)×\(rows) cells of \(cellSize) px is too large")
        }
        try Task.checkCancellation()
        let sheet = try await pool.run {
            try compose(images, cellSize: cellSize, across: across, spacing: spacing, background: background)
        }
        try Task.checkCancellation()
        return sheet
    }

    private static func compose(
        _ images: [PixelImage], cellSize: Int, across: Int, spacing: Int, background: PixelImage.RGBA
    ) throws -> PixelImage {
        try Vips.ensureInitialized()
        let failure = { (message: String) in PinholeError(.decodingFailed, "contact sheet: \(message)") }
        let colour = [Double(background.r), Double(background.g), Double(background.b)]
        let size = Int32(cellSize)
        let cells = try images.map { image in
            let source = try VipsImageHandle.copying(rgb(image), failure: failure)
                .flattened(onto: background, failure: failure)
            let fitted = try VipsImageHandle.make(failure: failure) {
                CPinholeVips_thumbnail_image(source.pointer, size, size, $0)
            }
            return try VipsImageHandle.make(failure: failure) {
                CPinholeVips_centre(fitted.pointer, size, size, colour, Int32(colour.count), $0)
            }
        }
        var pointers: [UnsafeMutablePointer<VipsImage>?] = cells.map { $0.pointer }
        let grid = try VipsImageHandle.make(failure: failure) {
            CPinholeVips_arrayjoin(
                &pointers, Int32(pointers.count), Int32(across), Int32(spacing), colour, Int32(colour.count), $0)
        }
        let rows = (images.count + across - 1) / across
        let width = across * cellSize + (across + 1) * spacing
        let height = rows * cellSize + (rows + 1) * spacing  // both checked against VIPS_MAX_COORD by make
        let sheet = try VipsImageHandle.make(failure: failure) {
            CPinholeVips_embed(
                grid.pointer, Int32(spacing), Int32(spacing), Int32(width), Int32(height), colour,
                Int32(colour.count), $0)
        }
        withExtendedLifetime(cells) {}
        return try sheet.pixelImage(failure: failure)
    }

    /// `gray8` spread to `rgb8`, so that every cell has the same bands; other formats are returned as they are.
    private static func rgb(_ image: PixelImage) -> PixelImage {
        guard image.pixelFormat == .gray8 else { return image }
        var pixels = [UInt8]()
        pixels.reserveCapacity(image.width * image.height * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let value = image.pixels[y * image.bytesPerRow + x]
                pixels.append(contentsOf: [value, value, value])
            }
        }
        return PixelImage(width: image.width, height: image.height, pixelFormat: .rgb8, pixels: pixels)
    }
}
