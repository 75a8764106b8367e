import Foundation

/// The layout of a disk-cache entry file (version 2). All integers are little-endian.
///
/// ```
/// offset  size  field
///      0     4  magic "PHDC"
///      4     4  version (2)
///      8     4  key length K (bytes of UTF-8)
///     12     4  metadata length M (bytes of JSON)
///     16     8  data length D
///     24     K  key
///   24+K     M  metadata (JSON of DiskCache.Metadata)
/// 24+K+M     D  data (the original bytes)
///    end     4  CRC-32 of every byte before it
/// ```
/// The lengths come first so that start-up can check a file's size and key from its first 24 + K bytes. A file
/// is valid only if its size is exactly 28 + K + M + D, the checksum matches and the key is the one asked for,
/// so a torn or truncated write is never served. Files are written to a temporary name and renamed, so a killed
/// writer leaves only a temporary file behind.
enum DiskCacheEntryFormat {
    static let magic: UInt32 = 0x4344_4850  // "PHDC" read as a little-endian UInt32
    /// 2 since every request header joins the source key: a version-1 entry may be another user's answer
    /// stored under the bare URL, so version-1 files are dropped when the cache opens.
    static let version: UInt32 = 2
    static let headerSize = 24
    static let trailerSize = 4

    /// Why a file is not a valid entry.
    enum Failure: Error, Equatable {
        case tooShort
        case badMagic
        case unsupportedVersion(UInt32)
        case sizeMismatch(expected: Int, actual: Int)
        case checksumMismatch
        case keyMismatch
        case badMetadata
    }

    /// The fixed-size start of an entry file.
    struct Header: Equatable {
        var keyLength: Int
        var metadataLength: Int
        var dataLength: Int

        /// The size in bytes of a whole file with these lengths.
        var fileSize: Int { headerSize + keyLength + metadataLength + dataLength + trailerSize }
    }

    /// Encodes an entry file.
    static func encode(key: String, metadata: DiskCache.Metadata, data: Data) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let metadataBytes = try encoder.encode(metadata)
        let keyBytes = Data(key.utf8)
        var file = Data()
        file.reserveCapacity(headerSize + keyBytes.count + metadataBytes.count + data.count + trailerSize)
        append(magic, to: &file)
        append(version, to: &file)
        append(UInt32(keyBytes.count), to: &file)
        append(UInt32(metadataBytes.count), to: &file)
        append(UInt64(data.count), to: &file)
        file.append(keyBytes)
        file.append(metadataBytes)
        file.append(data)
        let checksum = file.withUnsafeBytes { DiskCacheChecksum.crc32($0) }
        append(checksum, to: &file)
        return file
    }

    /// Parses the first ``headerSize`` bytes of a file of `fileSize` bytes and checks the size it declares.
    static func parseHeader(_ bytes: Data, fileSize: Int) throws(Failure) -> Header {
        guard bytes.count >= headerSize, fileSize >= headerSize + trailerSize else { throw .tooShort }
        let fields = bytes.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
            )
        }
        guard fields.0 == magic else { throw .badMagic }
        guard fields.1 == version else { throw .unsupportedVersion(fields.1) }
        guard fields.4 <= UInt64(Int.max / 2) else { throw .sizeMismatch(expected: Int.max, actual: fileSize) }
        let header = Header(keyLength: Int(fields.2), metadataLength: Int(fields.3), dataLength: Int(fields.4))
        guard header.fileSize == fileSize else { throw .sizeMismatch(expected: header.fileSize, actual: fileSize) }
        return header
    }

    /// The key stored in a file that starts with `prefix` (at least ``headerSize`` + K bytes).
    static func key(in prefix: Data, header: Header) throws(Failure) -> String {
        let start = prefix.startIndex + headerSize
        guard prefix.count >= headerSize + header.keyLength else { throw .tooShort }
        guard let key = String(validating: prefix[start..<start + header.keyLength], as: UTF8.self) else {
            throw .keyMismatch
        }
        return key
    }

    /// Decodes and validates a whole entry file.
    ///
    /// - Throws: a ``Failure`` when the file is short, torn, corrupt, or stores a key other than `expectedKey`.
    static func decode(_ file: Data, expectedKey: String) throws(Failure) -> DiskCache.Entry {
        let header = try parseHeader(file, fileSize: file.count)
        let stored = file.withUnsafeBytes { raw in
            raw.loadUnaligned(fromByteOffset: raw.count - trailerSize, as: UInt32.self).littleEndian
        }
        let computed = file.withUnsafeBytes { raw in
            DiskCacheChecksum.crc32(UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - trailerSize)]))
        }
        guard stored == computed else { throw .checksumMismatch }
        guard try key(in: file, header: header) == expectedKey else { throw .keyMismatch }
        let metadataStart = file.startIndex + headerSize + header.keyLength
        let dataStart = metadataStart + header.metadataLength
        let metadata: DiskCache.Metadata
        do {
            metadata = try JSONDecoder().decode(DiskCache.Metadata.self, from: file[metadataStart..<dataStart])
        } catch {
            throw .badMetadata
        }
        return DiskCache.Entry(data: file.subdata(in: dataStart..<dataStart + header.dataLength), metadata: metadata)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
