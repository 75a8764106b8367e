/// A PNG that is small to store and slow to decode: `side` × `side` pixels of black, 16-bit RGB (6 bytes per pixel),
/// so a 16,000-pixel side is 1.5 GB of pixel data in about 6 MB.
///
/// Its zlib stream is written directly (no compressor is needed for zeros): one deflate block with the fixed Huffman
/// codes, a literal 0 followed by copies of 258 bytes at distance 1 (13 bits each), padded with literal zeros, then
/// the end-of-block code and the Adler-32 of the zeros. libpng inflates and libvips shrinks all of it, row by row,
/// with libvips' progress reported after every output line.
enum SlowPNG {
    static func make(side: Int) -> [UInt8] {
        let rowBytes = 1 + side * 6  // filter type 0, then the samples
        let rawCount = rowBytes * side
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(side))
        header.appendBigEndian(UInt32(side))
        header.append(contentsOf: [16, 2, 0, 0, 0])  // 16-bit, RGB, deflate, adaptive filters, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", zlibOfZeros(count: rawCount))
        png.appendChunk("IEND", [])
        return png
    }

    /// A zlib stream that inflates to `count` zero bytes (`count` ≥ 1).
    static func zlibOfZeros(count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.data.append(contentsOf: [0x78, 0x01])  // deflate, 32 KiB window, no preset dictionary
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        let literalZero = (code: 0b0011_0000, length: 8)
        let copy = { (bits: inout BitWriter) in
            bits.writeHuffman(0b1100_0101, count: 8)  // length 258 (code 285, no extra bits)
            bits.writeHuffman(0, count: 5)  // distance 1 (code 0)
        }
        bits.writeHuffman(literalZero.code, count: literalZero.length)
        var copies = (count - 1) / 258
        let literals = (count - 1) % 258
        // 11 bits so far; one copy makes 24 (byte-aligned), and then 8 copies are exactly 13 bytes, always the same.
        if copies > 0 {
            copy(&bits)
            copies -= 1
        }
        if copies >= 8 {
            var block = BitWriter()
            for _ in 0..<8 { copy(&block) }
            let pattern = block.data
            bits.data.reserveCapacity(bits.data.count + pattern.count * (copies / 8) + 64)
            for _ in 0..<(copies / 8) { bits.data.append(contentsOf: pattern) }
            copies %= 8
        }
        for _ in 0..<copies { copy(&bits) }
        for _ in 0..<literals { bits.writeHuffman(literalZero.code, count: literalZero.length) }
        bits.writeHuffman(0, count: 7)  // end of block (256)
        bits.flush()
        // Adler-32 of zeros: s1 stays 1, s2 grows by 1 per byte.
        bits.data.appendBigEndian(UInt32(count % 65521) << 16 | 1)
        return bits.data
    }

    /// Packs bits least significant first, as deflate does; Huffman codes go most significant bit first.
    struct BitWriter {
        var data: [UInt8] = []
        private var buffer: UInt64 = 0
        private var used = 0

        mutating func write(_ value: Int, count: Int) {
            buffer |= UInt64(value) << UInt64(used)
            used += count
            while used >= 8 {
                data.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                used -= 8
            }
        }

        mutating func writeHuffman(_ code: Int, count: Int) {
            var reversed = 0
            for bit in 0..<count where code & (1 << (count - 1 - bit)) != 0 { reversed |= 1 << bit }
            write(reversed, count: count)
        }

        mutating func flush() {
            if used > 0 { write(0, count: 8 - used) }
        }
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }

    /// Appends a PNG chunk: length, type, data, CRC-32 of type and data.
    fileprivate mutating func appendChunk(_ type: String, _ body: [UInt8]) {
        appendBigEndian(UInt32(body.count))
        let typed = Array(type.utf8) + body
        append(contentsOf: typed)
        appendBigEndian(CRC32.checksum(typed))
    }
}

/// CRC-32 (IEEE 802.3, as PNG uses it), table-driven.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
