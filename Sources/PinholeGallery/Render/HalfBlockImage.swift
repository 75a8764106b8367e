public import Pinhole

/// A picture converted to terminal cells with truecolor half blocks: each cell is `▀` whose foreground is the
/// upper pixel and whose background is the lower pixel, so one cell shows two pixel rows.
///
/// Shape: ``columns`` × ``rows`` cells = ``columns`` × 2·``rows`` pixels. The picture is fitted into that box
/// with its aspect ratio kept (area-averaged), centred, and the rest filled with ``background``. Alpha is
/// composited over ``background``. ``lines`` holds one string per cell row: SGR `38;2;r;g;b` / `48;2;r;g;b`
/// sequences (repeated only when a colour changes), the `▀` characters, and a final `ESC[0m`.
///
/// Made off the main actor (the conversion reads every source pixel); the result is `Sendable`.
public struct HalfBlockImage: Sendable, Hashable {
    /// An 8-bit sRGB colour.
    public struct Color: Sendable, Hashable {
        public var r: UInt8
        public var g: UInt8
        public var b: UInt8

        public init(r: UInt8, g: UInt8, b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }
    }

    /// One terminal cell: the upper and the lower pixel.
    public struct Cell: Sendable, Hashable {
        public var top: Color
        public var bottom: Color

        public init(top: Color, bottom: Color) {
            self.top = top
            self.bottom = bottom
        }
    }

    /// Width in cells (= pixels).
    public let columns: Int
    /// Height in cells (= half the pixel rows).
    public let rows: Int
    /// The cells, row by row (`rows` arrays of `columns` cells).
    public let cells: [[Cell]]
    /// One printable string per cell row (see the type's discussion).
    public let lines: [String]

    /// The default fill: a dark grey that reads as "empty" on dark and light terminals.
    public static let defaultBackground = Color(r: 24, g: 24, b: 24)

    /// Converts `image` to `columns` × `rows` cells.
    ///
    /// - Parameters:
    ///   - image: any ``PixelImage`` (rgba8, rgb8 or gray8).
    ///   - columns: width in cells (≥ 1).
    ///   - rows: height in cells (≥ 1); the pixel box is `columns` × `2·rows`.
    ///   - background: fill outside the fitted picture and under transparent pixels.
    public init(_ image: PixelImage, columns: Int, rows: Int, background: Color = HalfBlockImage.defaultBackground) {
        let columns = max(1, columns)
        let rows = max(1, rows)
        let boxWidth = columns
        let boxHeight = rows * 2
        let scale = min(Double(boxWidth) / Double(image.width), Double(boxHeight) / Double(image.height))
        let fittedWidth = min(boxWidth, max(1, Int((Double(image.width) * scale).rounded())))
        let fittedHeight = min(boxHeight, max(1, Int((Double(image.height) * scale).rounded())))
        let left = (boxWidth - fittedWidth) / 2
        let top = (boxHeight - fittedHeight) / 2
        var pixels = [Color](repeating: background, count: boxWidth * boxHeight)
        for y in 0..<fittedHeight {
            let sourceTop = y * image.height / fittedHeight
            let sourceBottom = max(sourceTop + 1, (y + 1) * image.height / fittedHeight)
            for x in 0..<fittedWidth {
                let sourceLeft = x * image.width / fittedWidth
                let sourceRight = max(sourceLeft + 1, (x + 1) * image.width / fittedWidth)
                pixels[(top + y) * boxWidth + left + x] = Self.average(
                    image, x: sourceLeft..<sourceRight, y: sourceTop..<sourceBottom, over: background)
            }
        }
        var cells: [[Cell]] = []
        cells.reserveCapacity(rows)
        for row in 0..<rows {
            cells.append(
                (0..<columns).map { x in
                    Cell(top: pixels[(row * 2) * boxWidth + x], bottom: pixels[(row * 2 + 1) * boxWidth + x])
                })
        }
        self.columns = columns
        self.rows = rows
        self.cells = cells
        self.lines = cells.map(Self.line)
    }

    /// The printable string of one row of cells.
    static func line(_ cells: [Cell]) -> String {
        var text = ""
        var foreground: Color?
        var backgroundColor: Color?
        for cell in cells {
            if cell.top != foreground {
                text += "\u{1B}[38;2;\(cell.top.r);\(cell.top.g);\(cell.top.b)m"
                foreground = cell.top
            }
            if cell.bottom != backgroundColor {
                text += "\u{1B}[48;2;\(cell.bottom.r);\(cell.bottom.g);\(cell.bottom.b)m"
                backgroundColor = cell.bottom
            }
            text += "▀"
        }
        return text + "\u{1B}[0m"
    }

    /// The mean colour of a source rectangle, alpha composited over `background`.
    private static func average(_ image: PixelImage, x: Range<Int>, y: Range<Int>, over background: Color) -> Color {
        var red = 0
        var green = 0
        var blue = 0
        var count = 0
        for sourceY in y {
            for sourceX in x {
                let pixel = image.pixel(x: sourceX, y: sourceY)
                let alpha = Int(pixel.a)
                red += (Int(pixel.r) * alpha + Int(background.r) * (255 - alpha)) / 255
                green += (Int(pixel.g) * alpha + Int(background.g) * (255 - alpha)) / 255
                blue += (Int(pixel.b) * alpha + Int(background.b) * (255 - alpha)) / 255
                count += 1
            }
        }
        return Color(r: UInt8(red / count), g: UInt8(green / count), b: UInt8(blue / count))
    }
}
