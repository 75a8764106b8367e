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

    /// The longest side, in pixels, asked of the pipeline for the full view: the box's larger pixel side, so
    /// the photo is decoded at the size it is shown.
    public var fullViewRequestPixelSize: Int {
        let (columns, rows) = fullViewBox
        return max(columns * cellPixelSize.width, rows * cellPixelSize.height)
    }
}
