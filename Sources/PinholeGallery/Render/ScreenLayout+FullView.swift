public import Pinhole

extension ScreenLayout {
    /// Lines of metadata under the full view's picture: title; date, format and size; summary.
    public static let fullViewMetadataLines = 3

    /// The full view's picture box in cells: the whole width, every line but the header, the metadata, the
    /// message and the status line (each side ≥ 1).
    public var fullViewBox: (columns: Int, rows: Int) {
        (max(1, size.columns), max(1, size.rows - 3 - Self.fullViewMetadataLines))
    }

    /// The first line of the full view's picture box.
    public var fullViewTop: Int { 1 }

    /// What the full view's photo is asked of the pipeline as: fitted inside the picture box's pixel size, so it
    /// is decoded at the size it is shown (never scaled up: libchafa draws a smaller photo larger).
    public var fullViewThumbnailOptions: ThumbnailOptions {
        let (columns, rows) = fullViewBox
        return ThumbnailOptions(
            size: PixelSize(width: columns * cellPixelSize.width, height: rows * cellPixelSize.height),
            contentMode: .aspectFit)
    }
}
