import Foundation
import Pinhole
import PinholeTestFakes

extension TemporaryDirectory {
    /// The entry files (32 hex digits) and the sum of their sizes in bytes.
    func entryFiles() throws -> (count: Int, bytes: Int) {
        var count = 0
        var bytes = 0
        for name in try fileNames() where name.count == 32 && name.allSatisfy(\.isHexDigit) {
            let attributes = try FileManager.default.attributesOfItem(atPath: fileURL(name).path)
            count += 1
            bytes += (attributes[.size] as? NSNumber)?.intValue ?? -1
        }
        return (count, bytes)
    }

    /// The bytes of the entry file that stores `key`.
    func entryURL(forKey key: String) -> URL {
        fileURL(DiskCache.fileName(forKey: key))
    }
}

extension Data {
    /// `count` bytes of a repeating pattern that starts at `seed`.
    static func pattern(count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) })
    }
}
