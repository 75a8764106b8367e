import CChafa
import CPinholeChafa
public import Pinhole

/// Draws ``PixelImage``s for a terminal with libchafa (https://hpjansson.org/chafa/ref/), in any
/// ``GraphicsMode``: the symbol choice, colour quantisation, sixel palette and kitty/iTerm2 encoding are
/// libchafa's; Pinhole only chooses the box and the part of the image to draw.
///
/// Deterministic: the same image, box, mode, colour depth and cell size give the same bytes (libchafa runs
/// single-threaded here, see ``init(mode:colorDepth:cellPixelSize:environment:)``).
///
/// Isolation: a value, safe from any thread; ``render(_:columns:rows:fit:)`` is synchronous and CPU-bound (it
/// grows with the box's pixel count: a full-screen sixel picture costs far more than a thumbnail), so call it off
/// the main actor (the gallery uses two render threads of its own).
public struct ChafaRenderer: Sendable, Hashable {
    /// How the image meets its box.
    public enum Fit: String, Sendable, Hashable {
        /// The whole image, aspect ratio kept, centred; the rest of the box stays empty (spaces).
        case fit
        /// The box filled: the image's centre cut to the box's pixel aspect ratio (a sub-rectangle of the source
        /// pixels; nothing is resampled here), then drawn over the whole box. An image the pipeline already
        /// filled to the box (``ThumbnailOptions/ContentMode/fill(crop:)``) is drawn whole.
        case fill
    }

    /// The drawing mode.
    public let mode: GraphicsMode
    /// Colours of text cells (symbol modes); image protocols always get 24-bit input.
    public let colorDepth: ColorDepth
    /// The terminal's cell size: the image protocols draw `columns × cell width` by `rows × cell height`
    /// pixels; symbol modes use its ratio for the aspect of the fitted box.
    public let cellPixelSize: CellPixelSize
    /// `NAME=VALUE` strings libchafa's terminal database reads (`TERM`, `COLORTERM`, `TERM_PROGRAM`, …) to
    /// choose the escape sequences; sequences it does not know for that terminal come from its fallback set.
    public let environment: [String]

    /// - Parameters:
    ///   - mode: how pictures are drawn.
    ///   - colorDepth: colours of text cells; truecolor by default.
    ///   - cellPixelSize: the terminal's cell size in pixels; ``CellPixelSize/assumed`` by default.
    ///   - environment: the process environment as a dictionary (only the terminal variables matter).
    public init(
        mode: GraphicsMode, colorDepth: ColorDepth = .truecolor, cellPixelSize: CellPixelSize = .assumed,
        environment: [String: String] = [:]
    ) {
        Self.configureOnce
        self.mode = mode
        self.colorDepth = colorDepth
        self.cellPixelSize = cellPixelSize
        self.environment = environment.filter { Self.terminalVariables.contains($0.key) }
            .map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// The same renderer for another cell size.
    public func with(cellPixelSize: CellPixelSize) -> ChafaRenderer {
        ChafaRenderer(mode: mode, colorDepth: colorDepth, cellPixelSize: cellPixelSize, environmentStrings: environment)
    }

    private init(
        mode: GraphicsMode, colorDepth: ColorDepth, cellPixelSize: CellPixelSize, environmentStrings: [String]
    ) {
        self.mode = mode
        self.colorDepth = colorDepth
        self.cellPixelSize = cellPixelSize
        self.environment = environmentStrings
    }

    /// The environment variables libchafa 1.12's terminal database looks at.
    static let terminalVariables: Set<String> = [
        "TERM", "COLORTERM", "KONSOLE_VERSION", "VTE_VERSION", "TERM_PROGRAM", "TERMINAL_NAME", "TMUX",
        "CTX_BACKEND", "LC_TERMINAL", "ComSpec",
    ]

    /// libchafa draws symbol canvases with a thread pool of its own by default; one thread keeps its work on
    /// the caller's (bounded) render thread and its output independent of scheduling.
    private static let configureOnce: Void = { chafa_set_n_threads(1) }()

    /// Draws `image` into a box of `columns` × `rows` cells.
    ///
    /// - Parameters:
    ///   - image: any ``PixelImage`` (rgba8 with straight alpha, rgb8 or gray8).
    ///   - columns: box width in cells (values below 1 count as 1).
    ///   - rows: box height in cells (values below 1 count as 1).
    ///   - fit: ``Fit/fit`` (default) or ``Fit/fill``.
    /// - Returns: the picture; see ``TerminalPicture`` for its shape in each mode.
    public func render(_ image: PixelImage, columns: Int, rows: Int, fit: Fit = .fit) -> TerminalPicture {
        let columns = max(1, columns)
        let rows = max(1, rows)
        var source = ChafaSource(image)
        let drawn: (columns: Int, rows: Int)
        switch fit {
        case .fit:
            drawn = fittedCells(width: image.width, height: image.height, columns: columns, rows: rows)
        case .fill:
            source.crop(toAspect: Double(columns * cellPixelSize.width) / Double(rows * cellPixelSize.height))
            drawn = (columns, rows)
        }
        let text = draw(source, columns: drawn.columns, rows: drawn.rows)
        let left = (columns - drawn.columns) / 2
        let top = (rows - drawn.rows) / 2
        if mode.drawsPixels {
            return TerminalPicture(
                mode: mode, columns: columns, rows: rows, payload: text, pixelOffset: (left, top),
                pixelColumns: drawn.columns, pixelRows: drawn.rows)
        }
        return TerminalPicture(
            mode: mode, columns: columns, rows: rows,
            lines: Self.pad(text, columns: columns, rows: rows, left: left, top: top, drawnRows: drawn.rows))
    }

    /// The cells an image of `width` × `height` pixels takes inside the box with its aspect ratio kept (each
    /// side ≥ 1 cell, rounded to whole cells).
    public func fittedCells(width: Int, height: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        let boxWidth = Double(columns * cellPixelSize.width)
        let boxHeight = Double(rows * cellPixelSize.height)
        let scale = min(boxWidth / Double(max(1, width)), boxHeight / Double(max(1, height)))
        let fittedColumns = (Double(width) * scale / Double(cellPixelSize.width)).rounded()
        let fittedRows = (Double(height) * scale / Double(cellPixelSize.height)).rounded()
        return (min(columns, max(1, Int(fittedColumns))), min(rows, max(1, Int(fittedRows))))
    }

    /// Symbol lines padded with spaces to the box: `left` columns before, the rest after, `top` blank lines
    /// above and the rest below.
    private static func pad(_ text: String, columns: Int, rows: Int, left: Int, top: Int, drawnRows: Int)
        -> [String]
    {
        let blank = String(repeating: " ", count: columns)
        var lines = [String](repeating: blank, count: rows)
        let drawnLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let leftPad = String(repeating: " ", count: left)
        for (index, line) in drawnLines.prefix(drawnRows).enumerated() where top + index < rows {
            let width = TextWidth.columns(line.replacing(/\e\[[0-9;]*m/, with: ""))
            lines[top + index] = leftPad + line + String(repeating: " ", count: max(0, columns - left - width))
        }
        return lines
    }

    /// libchafa's output for `source` on a canvas of `columns` × `rows` cells.
    private func draw(_ source: ChafaSource, columns: Int, rows: Int) -> String {
        guard let config = chafa_canvas_config_new() else { return "" }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(cellPixelSize.width), Int32(cellPixelSize.height))
        configure(config)
        guard let canvas = chafa_canvas_new(config) else { return "" }
        defer { chafa_canvas_unref(canvas) }
        source.withPixels { type, pixels, width, height, stride in
            chafa_canvas_draw_all_pixels(canvas, type, pixels, Int32(width), Int32(height), Int32(stride))
        }
        let termInfo = makeTermInfo()
        defer { chafa_term_info_unref(termInfo) }
        var length = 0
        guard let printed = CPinholeChafa_print(canvas, termInfo, &length) else { return "" }
        defer { CPinholeChafa_free(printed) }
        return String(decoding: UnsafeRawBufferPointer(start: printed, count: length), as: UTF8.self)
    }

    /// Mode, colours, dithering and symbols: libchafa's own defaults for each mode (those of the `chafa`
    /// command: no dithering in truecolor, block + border + space symbols without wide or inverted ones),
    /// ordered dithering when text cells have a palette.
    private func configure(_ config: OpaquePointer) {
        switch mode {
        case .kitty: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_KITTY)
        case .iterm: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_ITERM2)
        case .sixel: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
        case .symbols, .halfblocks: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        }
        guard !mode.drawsPixels else {
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
            return
        }
        switch colorDepth {
        case .truecolor:
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        case .palette256:
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_240)
        case .palette16:
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_16)
        }
        if colorDepth != .truecolor {
            chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_ORDERED)
            chafa_canvas_config_set_dither_grain_size(config, 4, 4)
        }
        // Lines must stay SGR sequences and characters: no REP, no cursor moves over skipped cells.
        chafa_canvas_config_set_optimizations(config, CHAFA_OPTIMIZATION_REUSE_ATTRIBUTES)
        guard let symbols = chafa_symbol_map_new() else { return }
        defer { chafa_symbol_map_unref(symbols) }
        if mode == .halfblocks {
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_VHALF)
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_SOLID)
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_SPACE)
        } else {
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_BLOCK)
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_BORDER)
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_SPACE)
            chafa_symbol_map_remove_by_tags(symbols, CHAFA_SYMBOL_TAG_WIDE)
            chafa_symbol_map_remove_by_tags(symbols, CHAFA_SYMBOL_TAG_INVERTED)
        }
        chafa_canvas_config_set_symbol_map(config, symbols)
    }

    /// The terminal's escape sequences: libchafa's database entry for ``environment``, completed with its
    /// fallback set (so a mode chosen by a terminal query, not by the environment, still has its sequences).
    private func makeTermInfo() -> OpaquePointer? {
        let database = chafa_term_db_get_default()
        var strings = environment.map { strdup($0) } + [nil]
        defer { for string in strings { free(string) } }
        let info = strings.withUnsafeMutableBufferPointer { chafa_term_db_detect(database, $0.baseAddress) }
        let fallback = chafa_term_db_get_fallback_info(database)
        chafa_term_info_supplement(info, fallback)
        chafa_term_info_unref(fallback)
        return info
    }
}
