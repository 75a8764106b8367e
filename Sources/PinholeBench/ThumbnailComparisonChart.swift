public import Foundation
import Pinhole
import PinholeVips

/// A PNG bar chart of a ``ThumbnailComparisonResult``: one horizontal bar per tool and job count, its length
/// Pinhole's speed-up over that tool (images/s at the same jobs; JPEG-only tools against Pinhole on the JPEGs),
/// a line at 1× (parity) and, per bar, the target as a tick. Bars are drawn into RGB pixels here; libvips renders
/// the labels (`vips_text`) and writes the PNG.
public enum ThumbnailComparisonChart {
    private static let width = 960
    private static let labelWidth = 300
    private static let rowHeight = 30
    private static let top = 50

    /// Renders the chart of `result` as PNG bytes.
    ///
    /// - Throws: ``PinholeError/Code/decodingFailed`` when libvips cannot render a label or encode the PNG.
    public static func png(_ result: ThumbnailComparisonResult) async throws -> Data {
        let bars = result.rows.compactMap { row -> (String, Double, Int, Double?)? in
            guard row.tool != .pinhole, row.tool != .pinholeJPEG,
                let speedup = result.pinholeSpeedup(row.tool, jobs: row.jobs)
            else { return nil }
            return ("\(row.tool.rawValue) ×\(row.jobs)", speedup, row.jobs, target(row.tool))
        }
        let image = try await WorkerThreadPool.cpu.run { try draw(bars, result: result) }
        return try await VipsEncoder(pool: .cpu).encode(image, options: EncodingOptions(format: .png))
    }

    private static func target(_ tool: ThumbnailComparisonResult.Tool) -> Double? {
        switch tool {
        case .vipsthumbnail: 1.5
        case .pyvips, .pillowDraft: 1.0
        case .imagemagick: 3.0
        case .turbojpegFloor: 0.8
        default: nil
        }
    }

    /// Blocking: the chart's pixels (rgb8).
    private static func draw(
        _ bars: [(label: String, value: Double, jobs: Int, target: Double?)], result: ThumbnailComparisonResult
    ) throws -> PixelImage {
        let height = top + bars.count * rowHeight + 40
        var canvas = Canvas(width: width, height: height)
        let largest = max(1.2, bars.map { max($0.value, $0.target ?? 0) }.max() ?? 1) * 1.1
        let plotWidth = width - labelWidth - 20
        func x(_ value: Double) -> Int { labelWidth + Int(Double(plotWidth) * value / largest) }
        try canvas.text(
            "Pinhole's speed-up over each tool (images/s at the same jobs) — \(result.images) photos → "
                + "\(result.size) px JPEG q\(result.quality)", x: 10, y: 12)
        for (index, bar) in bars.enumerated() {
            let y = top + index * rowHeight
            let colour: [UInt8] = bar.jobs == 1 ? [66, 133, 244] : [244, 160, 0]
            canvas.fill(x: labelWidth, y: y + 4, width: x(bar.value) - labelWidth, height: rowHeight - 8, colour)
            if let target = bar.target {
                canvas.fill(x: x(target) - 1, y: y + 1, width: 3, height: rowHeight - 2, [200, 0, 0])
            }
            try canvas.text(bar.label, x: 10, y: y + 7)
            try canvas.text(String(format: "%.2f×", bar.value), x: x(bar.value) + 6, y: y + 7)
        }
        canvas.fill(x: x(1) - 1, y: top - 6, width: 2, height: bars.count * rowHeight + 12, [0, 0, 0])
        try canvas.text(
            "black line: parity (1×); red tick: target; blue: 1 job; orange: \(result.activeProcessors) jobs",
            x: 10, y: top + bars.count * rowHeight + 14)
        return PixelImage(width: width, height: height, pixelFormat: .rgb8, pixels: canvas.pixels)
    }

    /// A white RGB canvas with rectangle fills and libvips-rendered text.
    private struct Canvas {
        let width: Int
        let height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            pixels = [UInt8](repeating: 255, count: width * height * 3)
        }

        mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ colour: [UInt8]) {
            for row in max(0, y)..<min(height, y + h) {
                for column in max(0, x)..<min(width, x + max(0, w)) {
                    let offset = (row * width + column) * 3
                    pixels[offset] = colour[0]
                    pixels[offset + 1] = colour[1]
                    pixels[offset + 2] = colour[2]
                }
            }
        }

        /// Draws `text` in black with its top-left corner at (`x`, `y`).
        mutating func text(_ text: String, x: Int, y: Int) throws {
            let ink = try VipsText.render(text)
            let (w, h) = (ink.width, ink.height)
            for row in 0..<h where y + row < height {
                for column in 0..<w where x + column < width {
                    let coverage = Int(ink.pixels[row * ink.bytesPerRow + column])
                    let offset = ((y + row) * width + x + column) * 3
                    for channel in 0..<3 {
                        pixels[offset + channel] = UInt8(Int(pixels[offset + channel]) * (255 - coverage) / 255)
                    }
                }
            }
        }
    }
}
