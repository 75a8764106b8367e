/// A key the gallery understands.
public enum Key: String, Sendable, Hashable, CaseIterable {
    case up, down, left, right, pageUp, pageDown, home, end
    /// Enter: open the selected photo in the full view.
    case open
    /// Esc (or Backspace): leave the full view, back to the list or grid where it was.
    case back
    /// `g`: switch between the list and the grid.
    case toggleLayout
    /// `f`: toggle the selected item's favourite mark.
    case favourite
    /// `r`: retry the feed after an error, or the failed thumbnails on screen.
    case retry
    /// `q` (or Ctrl-C with the terminal in raw mode).
    case quit
}

/// Turns bytes read from a terminal in raw mode into ``Key``s: letters (`j`/`k`/`h`/`l`, `f`, `r`, `q`, `g`, `G`),
/// Enter, Backspace, Esc and the escape sequences of arrows, Page Up/Down and Home/End (`ESC [ A`, `ESC [ 5 ~`,
/// `ESC O H`, `ESC [ 1 ~`, …).
///
/// A sequence split across two reads is completed by the next call. A lone `ESC` is the Esc key only once no
/// more bytes follow: the reader calls ``flush()`` after a short quiet time. Unknown bytes and sequences are
/// skipped.
public struct KeyParser: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// The keys in `bytes` (plus any sequence left incomplete by the previous call).
    public mutating func keys(from bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            guard byte == 0x1B else {
                if let key = Self.single(byte) { keys.append(key) }
                index += 1
                continue
            }
            switch Self.sequence(pending[index...]) {
            case .incomplete:
                pending.removeFirst(index)
                return keys
            case .key(let key, let length):
                keys.append(key)
                index += length
            case .unknown(let length):
                index += length
            }
        }
        pending.removeAll()
        return keys
    }

    /// `true` while bytes of an incomplete sequence (or a lone `ESC`) wait for more input.
    public var hasPending: Bool { !pending.isEmpty }

    /// Ends what is pending once no more input came: a lone `ESC` is the Esc key (``Key/back``); anything else
    /// pending is dropped.
    public mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.back] : []
    }

    private static func single(_ byte: UInt8) -> Key? {
        switch byte {
        case UInt8(ascii: "k"): .up
        case UInt8(ascii: "j"): .down
        case UInt8(ascii: "h"): .left
        case UInt8(ascii: "l"): .right
        case UInt8(ascii: "g"): .toggleLayout
        case UInt8(ascii: "G"): .end
        case 0x0D, 0x0A: .open
        case 0x7F, 0x08: .back
        case UInt8(ascii: " "): .pageDown
        case UInt8(ascii: "b"): .pageUp
        case UInt8(ascii: "f"), UInt8(ascii: "F"): .favourite
        case UInt8(ascii: "r"), UInt8(ascii: "R"): .retry
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03: .quit
        default: nil
        }
    }

    private enum Parsed {
        case incomplete
        case key(Key, length: Int)
        case unknown(length: Int)
    }

    /// Parses an escape sequence starting at `bytes.startIndex` (an ESC).
    private static func sequence(_ bytes: ArraySlice<UInt8>) -> Parsed {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return .incomplete }
        let introducer = bytes[start + 1]
        if introducer == UInt8(ascii: "_") || introducer == UInt8(ascii: "P") || introducer == UInt8(ascii: "]") {
            // A string reply (APC, DCS, OSC) that came late from a terminal query: skip to its ST (ESC \) or BEL.
            var index = start + 2
            while index < bytes.endIndex {
                if bytes[index] == 0x07 { return .unknown(length: index - start + 1) }
                if bytes[index] == 0x1B, index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "\\") {
                    return .unknown(length: index - start + 2)
                }
                index += 1
            }
            return .incomplete
        }
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            return .key(.back, length: 1)  // Esc followed by another key
        }
        // Parameters (digits, ';') then one final byte in 0x40…0x7E.
        var index = start + 2
        while index < bytes.endIndex, (0x30...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return .incomplete }
        let final = bytes[index]
        let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
        let length = index - start + 1
        let key: Key? =
            switch final {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            case UInt8(ascii: "H"): .home
            case UInt8(ascii: "F"): .end
            case UInt8(ascii: "~"):
                switch parameters.split(separator: ";").first {
                case "1", "7": .home
                case "4", "8": .end
                case "5": .pageUp
                case "6": .pageDown
                default: nil
                }
            default: nil
            }
        return key.map { .key($0, length: length) } ?? .unknown(length: length)
    }
}
