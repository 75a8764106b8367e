/// The colour space signature and the `desc` tag's text of an ICC profile (v2 `desc` or v4 `mluc`).
struct ICCProfileDescription {
    /// Data colour space signature, 4 characters (`"RGB "`, `"GRAY"`, `"CMYK"`).
    var colourSpace: String
    /// The profile description, for example `"sRGB IEC61966-2.1"` or `"Display P3"`.
    var text: String

    init?(_ profile: [UInt8]) {
        guard profile.count >= 132 else { return nil }
        colourSpace = String(decoding: profile[16..<20], as: UTF8.self)
        let tagCount = Self.uint32(profile, 128)
        guard tagCount < 1000, profile.count >= 132 + tagCount * 12 else { return nil }
        var found: String?
        for index in 0..<tagCount {
            let entry = 132 + index * 12
            guard String(decoding: profile[entry..<entry + 4], as: UTF8.self) == "desc" else { continue }
            let offset = Self.uint32(profile, entry + 4)
            let size = Self.uint32(profile, entry + 8)
            guard size >= 12, offset + size <= profile.count else { return nil }
            found = Self.text(Array(profile[offset..<offset + size]))
        }
        guard let found else { return nil }
        text = found
    }

    /// The text of a `desc` (ASCII) or `mluc` (first record, UTF-16BE) tag element.
    private static func text(_ element: [UInt8]) -> String? {
        switch String(decoding: element[0..<4], as: UTF8.self) {
        case "desc":
            let count = uint32(element, 8)
            guard 12 + count <= element.count else { return nil }
            return String(decoding: element[12..<12 + count].prefix { $0 != 0 }, as: UTF8.self)
        case "mluc":
            guard element.count >= 28, uint32(element, 8) >= 1 else { return nil }
            let length = uint32(element, 20)
            let offset = uint32(element, 24)
            guard offset + length <= element.count else { return nil }
            let units = stride(from: offset, to: offset + length - 1, by: 2).map {
                UInt16(element[$0]) << 8 | UInt16(element[$0 + 1])
            }
            return String(decoding: units, as: UTF16.self)
        default:
            return nil
        }
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> Int {
        guard at + 4 <= bytes.count else { return 0 }
        return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}
