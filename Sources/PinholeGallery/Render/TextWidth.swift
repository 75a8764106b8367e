/// How many terminal columns text takes, and cutting text to a width, without ANSI sequences in the text.
///
/// An approximation of `wcwidth` that needs no C locale: combining marks and zero-width characters take 0
/// columns, East Asian wide and fullwidth characters and most emoji take 2, everything else 1.
enum TextWidth {
    /// Columns taken by one scalar.
    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if isWide(value) { return 2 }
        return 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Columns taken by `text`.
    static func columns(_ text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    /// `text` cut to at most `width` columns (with `…` as the last column when cut) and padded with spaces to
    /// exactly `width` columns. Control characters become spaces.
    static func fit(_ text: some StringProtocol, to width: Int) -> String {
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        let total = columns(text)
        let limit = total > width ? width - 1 : width
        for scalar in text.unicodeScalars {
            let isControl = scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
            let scalarToAdd = isControl ? " " : scalar
            let taken = isControl ? 1 : columns(scalar)
            if used + taken > limit { break }
            result.unicodeScalars.append(scalarToAdd)
            used += taken
        }
        if total > width {
            result += "…"
            used += 1
        }
        if used < width { result += String(repeating: " ", count: width - used) }
        return result
    }
}
