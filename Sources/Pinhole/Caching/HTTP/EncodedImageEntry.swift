import Foundation

/// The disk-cache payload of an encoded processed image: a short header with the source's facts, then the
/// encoded bytes (JPEG or PNG).
///
/// Layout: the 8 bytes `PHENC1\n\0`, a 4-byte little-endian length N, N bytes of JSON (``Header``), then the image.
/// The disk cache's own checksum guards the whole; a payload that does not parse is treated as a miss.
struct EncodedImageEntry {
    /// The source's facts a response carries (``DecodedImage/SourceInfo``).
    struct Header: Codable, Equatable {
        var format: String
        var width: Int
        var height: Int
        var orientation: Int
        var frameCount: Int
    }

    static let magic = Data("PHENC1\n\0".utf8)

    var info: DecodedImage.SourceInfo
    var image: Data

    /// The disk-cache key of `key`'s encoded image: every part of the image key, one per line.
    static func diskKey(for key: ImageKey) -> String {
        let thumbnail = key.thumbnail.map { "\($0.size) \($0.contentMode)\($0.allowsUpscaling ? " up" : "")" } ?? "full"
        return "pinhole-encoded-image\n\(key.sourceKey)\n\(thumbnail)\n\(key.processing)"
    }

    func encoded() throws -> Data {
        let header = Header(
            format: info.format.name, width: info.width, height: info.height, orientation: info.orientation,
            frameCount: info.frameCount)
        let json = try JSONEncoder().encode(header)
        var data = Self.magic
        withUnsafeBytes(of: UInt32(json.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(image)
        return data
    }

    /// Parses a payload; `nil` when it is not one.
    init?(decoding data: Data) {
        let bytes = [UInt8](data.prefix(Self.magic.count + 4))
        guard bytes.count == Self.magic.count + 4, Data(bytes.prefix(Self.magic.count)) == Self.magic else {
            return nil
        }
        let length = bytes.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        let start = data.startIndex + Self.magic.count + 4
        guard length > 0, data.count - Self.magic.count - 4 > length,
            let header = try? JSONDecoder().decode(Header.self, from: data[start..<start + length])
        else { return nil }
        info = DecodedImage.SourceInfo(
            format: ImageFormat(name: header.format), width: header.width, height: header.height,
            orientation: header.orientation, frameCount: header.frameCount)
        image = Data(data[(start + length)...])
    }

    init(info: DecodedImage.SourceInfo, image: Data) {
        self.info = info
        self.image = image
    }
}
