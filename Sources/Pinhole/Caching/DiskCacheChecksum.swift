import PinholeShared

/// Hashes for the disk cache: FNV-1a 64 (`StableHash`) for file names and CRC-32 (IEEE 802.3, the zlib
/// polynomial) for the entry checksum. Neither is cryptographic: names are verified against the stored key, and
/// the checksum detects torn or corrupted files, not tampering.
enum DiskCacheChecksum {
    /// The entry file name for `key`: two independent FNV-1a 64 hashes of its UTF-8 bytes (the standard basis and
    /// a second basis), as 32 lowercase hexadecimal digits.
    static func fileName(forKey key: String) -> String {
        let first = StableHash.fnv1a64(key.utf8)
        let second = StableHash.fnv1a64(key.utf8, basis: 0x8422_2325_cbf2_9ce4 ^ 0x5069_6e68_6f6c_6521)  // "Pinhole!"
        return hex(first) + hex(second)
    }

    /// Whether `name` has the shape of an entry file name (32 lowercase hexadecimal digits).
    static func isEntryFileName(_ name: String) -> Bool {
        name.utf8.count == 32 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// CRC-32 (reflected polynomial 0xEDB88320, as zlib's `crc32`) of `bytes`, continuing from `crc`
    /// (0 to start). Slicing-by-8: eight table lookups per 8 bytes.
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        crcTables.withUnsafeBufferPointer { tables in
            var crc = ~crc
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
                let low = crc ^ UInt32(truncatingIfNeeded: word)
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc =
                    tables[7 &* 256 &+ Int(low & 0xff)] ^ tables[6 &* 256 &+ Int((low >> 8) & 0xff)]
                    ^ tables[5 &* 256 &+ Int((low >> 16) & 0xff)] ^ tables[4 &* 256 &+ Int(low >> 24)]
                    ^ tables[3 &* 256 &+ Int(high & 0xff)] ^ tables[2 &* 256 &+ Int((high >> 8) & 0xff)]
                    ^ tables[256 &+ Int((high >> 16) & 0xff)] ^ tables[Int(high >> 24)]
                index &+= 8
            }
            while index < count {
                crc = tables[Int((crc ^ UInt32(bytes[index])) & 0xff)] ^ (crc >> 8)
                index &+= 1
            }
            return ~crc
        }
    }

    /// Eight 256-entry tables: table 0 is the classic byte-wise table, table k advances k more zero bytes.
    private static let crcTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xff)]
            }
        }
        return tables
    }()
}
