import CPinholeChafa

/// How many terminal columns text takes, and cutting text to a width, without ANSI sequences in the text.
///
/// `wcwidth` without a C locale: GLib's Unicode tables (through CPinholeChafa) say which characters take 0
/// columns (combining marks, zero-width characters) and which 2 (East Asian wide and fullwidth, emoji);
/// control characters take 0, everything else 1.
enum TextWidth {
    /// Columns taken by one scalar.
    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }  // Latin text, the common case, without a call into GLib
        return Int(CPinholeChafa_columns(value))
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
