/// What a terminal answered to ``TerminalProbe/query``: a pure parser of the reply bytes.
///
/// The query asks, in this order (every answer is optional except the last, which every VT100-compatible
/// terminal gives, so it marks the end):
/// - the kitty graphics protocol: `ESC_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA ESC\` → `ESC_Gi=31;OK ESC\` from terminals
///   that support it (https://sw.kovidgoyal.net/kitty/graphics-protocol/, "Querying support and available
///   transmission mediums");
/// - the cell size in pixels: `CSI 16 t` → `CSI 6 ; height ; width t` (xterm's window operations, answered by
///   kitty, WezTerm, foot, mlterm, iTerm2; xterm itself only when `allowWindowOps` is set);
/// - the text area in pixels: `CSI 14 t` → `CSI 4 ; height ; width t`;
/// - Primary Device Attributes: `CSI c` → `CSI ? 6x ; … c`, where the attribute 4 means sixel graphics
///   (https://vt100.net/docs/vt510-rm/DA1.html).
public struct TerminalReplies: Sendable, Equatable {
    /// The kitty graphics query was answered `OK`.
    public var supportsKittyGraphics = false
    /// The Device Attributes reply lists 4 (sixel graphics).
    public var supportsSixel = false
    /// The cell size from `CSI 16 t`, if answered.
    public var cellPixelSize: CellPixelSize?
    /// The text area in pixels from `CSI 14 t` (width, height), if answered.
    public var textAreaPixels: (width: Int, height: Int)?
    /// The Device Attributes reply arrived (nothing more will come).
    public var isComplete = false

    public init() {}

    /// Parses `bytes`, the terminal's replies in the order they came; other bytes (keys typed meanwhile) are
    /// skipped.
    public init(parsing bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B, index + 1 < bytes.count else {
                index += 1
                continue
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "_"):  // APC … ST
                let end = Self.stringTerminator(in: bytes, from: index + 2)
                let body = String(decoding: bytes[(index + 2)..<end.bodyEnd], as: UTF8.self)
                if body.hasPrefix("Gi=31;") && body.hasSuffix("OK") { supportsKittyGraphics = true }
                index = end.next
            case UInt8(ascii: "["):  // CSI parameters final
                var end = index + 2
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                guard end < bytes.count else { return }
                let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                handle(parameters: parameters, final: bytes[end])
                index = end + 1
            default:
                index += 1
            }
        }
    }

    private mutating func handle(parameters: String, final: UInt8) {
        switch final {
        case UInt8(ascii: "c") where parameters.hasPrefix("?"):
            let attributes = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
            supportsSixel = attributes.dropFirst().contains(4)
            isComplete = true
        case UInt8(ascii: "t"):
            let numbers = parameters.split(separator: ";").compactMap { Int($0) }
            guard numbers.count == 3, numbers[1] > 0, numbers[2] > 0 else { return }
            if numbers[0] == 6 { cellPixelSize = CellPixelSize(width: numbers[2], height: numbers[1]) }
            if numbers[0] == 4 { textAreaPixels = (numbers[2], numbers[1]) }
        default:
            break
        }
    }

    /// The end of a string sequence's body (`ESC \` or BEL) and the index after its terminator.
    private static func stringTerminator(in bytes: [UInt8], from start: Int) -> (bodyEnd: Int, next: Int) {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x07 { return (index, index + 1) }
            if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
                return (index, index + 2)
            }
            index += 1
        }
        return (bytes.count, bytes.count)
    }

    public static func == (lhs: TerminalReplies, rhs: TerminalReplies) -> Bool {
        lhs.supportsKittyGraphics == rhs.supportsKittyGraphics && lhs.supportsSixel == rhs.supportsSixel
            && lhs.cellPixelSize == rhs.cellPixelSize && lhs.textAreaPixels?.width == rhs.textAreaPixels?.width
            && lhs.textAreaPixels?.height == rhs.textAreaPixels?.height && lhs.isComplete == rhs.isComplete
    }
}
