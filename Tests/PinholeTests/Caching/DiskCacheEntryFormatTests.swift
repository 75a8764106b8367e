import Foundation
import PinholeShared
import PinholeTestSupport
import Testing

@testable import Pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct DiskCacheEntryFormatTests {
    private let metadata = DiskCache.Metadata(
        etag: "e", contentType: "image/png", storedAt: Date(timeIntervalSince1970: 5))

    @Test func crc32MatchesTheStandardCheckValue() {
        let bytes = Data("123456789".utf8)
        #expect(bytes.withUnsafeBytes { DiskCacheChecksum.crc32($0) } == 0xcbf4_3926)
        // Continuing over two halves gives the same value as one pass (the slicing path and the tail path agree)
        let long = Data.pattern(count: 1003)
        let whole = long.withUnsafeBytes { DiskCacheChecksum.crc32($0) }
        let first = long.prefix(501).withUnsafeBytes { DiskCacheChecksum.crc32($0) }
        let both = long.suffix(from: 501).withUnsafeBytes { DiskCacheChecksum.crc32($0, continuing: first) }
        #expect(both == whole)
    }

    @Test func fileNamesAreTwoFNV1aHashesIn32HexDigits() {
        #expect(StableHash.fnv1a64("a".utf8) == 0xaf63_dc4c_8601_ec8c)
        let name = DiskCacheChecksum.fileName(forKey: "")
        #expect(name.hasPrefix("cbf29ce484222325"))
        #expect(name.count == 32)
        #expect(DiskCacheChecksum.isEntryFileName(name))
        #expect(DiskCacheChecksum.fileName(forKey: "https://a/1") != DiskCacheChecksum.fileName(forKey: "https://a/2"))
        #expect(!DiskCacheChecksum.isEntryFileName(".tmp-1234"))
        #expect(!DiskCacheChecksum.isEntryFileName(String(repeating: "G", count: 32)))
    }

    @Test func encodedFileHasTheDocumentedLayout() throws {
        // Given an entry with a 5-byte key and 300 bytes of data
        let file = try DiskCacheEntryFormat.encode(key: "key-1", metadata: metadata, data: Data.pattern(count: 300))

        // Then the header declares the lengths and the size adds up
        let header = try DiskCacheEntryFormat.parseHeader(file, fileSize: file.count)
        #expect(file.prefix(4) == Data("PHDC".utf8))
        #expect(header.keyLength == 5)
        #expect(header.dataLength == 300)
        #expect(header.fileSize == file.count)
        #expect(try DiskCacheEntryFormat.key(in: file, header: header) == "key-1")
        let entry = try DiskCacheEntryFormat.decode(file, expectedKey: "key-1")
        #expect(entry == DiskCache.Entry(data: Data.pattern(count: 300), metadata: metadata))
    }

    @Test func everyTruncationIsRejected() throws {
        let file = try DiskCacheEntryFormat.encode(key: "k", metadata: metadata, data: Data.pattern(count: 64))
        for length in 0..<file.count {
            #expect(throws: DiskCacheEntryFormat.Failure.self) {
                try DiskCacheEntryFormat.decode(file.prefix(length), expectedKey: "k")
            }
        }
    }

    @Test func everyFlippedByteIsRejected() throws {
        let file = try DiskCacheEntryFormat.encode(key: "k", metadata: metadata, data: Data.pattern(count: 64))
        for position in 0..<file.count {
            var damaged = file
            damaged[position] ^= 0x5a
            #expect(throws: DiskCacheEntryFormat.Failure.self) {
                try DiskCacheEntryFormat.decode(damaged, expectedKey: "k")
            }
        }
    }

    @Test func anotherKeyIsRejected() throws {
        let file = try DiskCacheEntryFormat.encode(key: "k", metadata: metadata, data: Data())
        #expect(throws: DiskCacheEntryFormat.Failure.keyMismatch) {
            try DiskCacheEntryFormat.decode(file, expectedKey: "K")
        }
    }
}
