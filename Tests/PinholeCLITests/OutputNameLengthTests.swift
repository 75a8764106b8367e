import Foundation
import PinholeTestSupport
import Testing

@testable import pinhole

/// Output names stay within the file system's 255 bytes and unique, whatever the input's path (the kind of case
/// S06b of cases-s2: each URL path segment legal, host + path joined far over 255 bytes).
@Suite(.timeLimit(scaledMinutes: 1))
struct OutputNameLengthTests {
    static let cjk = String(repeating: "東京タワーの夜景", count: 6)  // 48 characters, 144 bytes

    /// Relative paths whose flattened names are far over the limit, in every width of UTF-8.
    static let longPaths = [
        "upload.example/commons/thumb/0/0b/\(cjk).jpg/700px-\(cjk).jpg",
        String(repeating: "a", count: 400) + ".jpg",
        String(repeating: "é", count: 200) + "/x.png",
        String(repeating: "👩‍👩‍👧‍👦", count: 30) + ".jpg",  // 25-byte grapheme clusters
        String(repeating: "d/", count: 150) + "leaf.jpg",
        String(repeating: "x", count: 251) + ".jpg",  // exactly over by the suffix
    ]

    @Test(arguments: longPaths, [(360, "jpg"), (16384, "webp")])
    func everyNameFitsIn255Bytes(_ path: String, format: (size: Int, fileExtension: String)) {
        let naming = OutputNaming(size: format.size, fileExtension: format.fileExtension)
        // Given the same long path three times (so numbered names are needed too)
        let names = naming.names(for: [path, path, path])
        // Then every name is within 255 bytes, ends as a thumbnail name does, and keeps whole characters
        for name in names {
            #expect(name.utf8.count <= OutputNaming.maxNameBytes, "\(name.utf8.count) bytes: \(name)")
            #expect(name.hasSuffix(".\(format.size).\(format.fileExtension)"))
            #expect(naming.stem(path).hasPrefix(name.prefix { $0 != "~" }))
        }
        #expect(Set(names.map { $0.lowercased() }).count == 3)
    }

    @Test func longNamesThatShareTheirBeginningStayApart() {
        // Given 100 long paths that differ only after the first 300 bytes, some only in letter case
        let naming = OutputNaming(size: 360, fileExtension: "jpg")
        let prefix = String(repeating: "p", count: 300)
        let paths =
            (0..<50).map { "\(prefix)-\($0).jpg" } + (0..<50).map { "\(prefix)-\($0)-X.jpg" }
            + ["\(prefix)-case.jpg", "\(prefix)-CASE.jpg"]
        // Then all names are distinct, also case-insensitively, and the same on every run
        let names = naming.names(for: paths)
        #expect(Set(names.map { $0.lowercased() }).count == paths.count)
        #expect(names.allSatisfy { $0.utf8.count <= OutputNaming.maxNameBytes })
        #expect(naming.names(for: paths) == names)
    }

    @Test func aShortenedNameEndsWithAHashOfTheWholeStem() {
        let naming = OutputNaming(size: 360, fileExtension: "jpg")
        let path = String(repeating: "b", count: 300) + ".jpg"
        let name = naming.names(for: [path])[0]
        #expect(
            name == String(repeating: "b", count: 255 - ".360.jpg".count - "~12345678".count) + "~"
                + OutputNaming.shortHash(naming.stem(path)) + ".360.jpg")
        #expect(OutputNaming.shortHash("abc").count == 8)
        #expect(OutputNaming.shortHash("abc") != OutputNaming.shortHash("abd"))
    }

    @Test func namesWithinTheLimitAreUnchanged() {
        let naming = OutputNaming(size: 360, fileExtension: "jpg")
        let path = String(repeating: "c", count: 255 - ".360.jpg".count) + ".png"
        #expect(naming.names(for: [path]) == [String(repeating: "c", count: 247) + ".360.jpg"])
    }
}
