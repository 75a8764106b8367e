import Foundation
import PinholeShared
import PinholeTestSupport
import Testing

@testable import pinhole

/// Names of listed inputs: from the input alone, stable, distinct for distinct inputs, within 255 bytes.
@Suite(.timeLimit(scaledMinutes: 1))
struct ListedOutputNamingTests {
    let naming = OutputNaming(size: 360, fileExtension: "jpg")

    @Test func namesAListedPathByItsStemAndHash() throws {
        let input = try #require(InputFile(listed: "photos/2024/a.jpg"))
        let hash = StableHash.fnv1a64("photos/2024/a.jpg")
        let name = naming.name(forListed: input.relativePath, hash: hash)
        let digits = String(hash >> 32, radix: 16)
        #expect(name == "photos__2024__a-\(String(repeating: "0", count: 8 - digits.count) + digits).360.jpg")
    }

    @Test func keepsInputsWithTheSameStemApart() throws {
        // Given inputs whose stems collide: ./a.jpg and a.jpg, a.png, a URL with different queries
        let lines = ["a.jpg", "./a.jpg", "a.png", "A.jpg", "https://h/a.jpg?v=1", "https://h/a.jpg?v=2"]
        let names = try lines.map { line in
            naming.name(forListed: try #require(InputFile(listed: line)).relativePath, hash: StableHash.fnv1a64(line))
        }
        // Then every name differs (ignoring case, as a case-insensitive file system would)
        #expect(Set(names.map { $0.lowercased() }).count == lines.count, "\(names)")
    }

    @Test func neverNamesAHiddenFileOrLeavesTheOutputDirectory() throws {
        #expect(try #require(InputFile(listed: "./x.jpg")).relativePath == "x.jpg")
        #expect(try #require(InputFile(listed: "../../etc/x.jpg")).relativePath == "etc/x.jpg")
        #expect(try #require(InputFile(listed: "/abs//dir/./y.png")).relativePath == "abs/dir/y.png")
        #expect(try #require(InputFile(listed: "file:///srv/z.jpg")).source.path == "/srv/z.jpg")
        let url = try #require(InputFile(listed: "https://img.example/p/q.jpg?s=1"))
        #expect(url.relativePath == "img.example/p/q.jpg")
        #expect(url.path == "https://img.example/p/q.jpg?s=1")
    }

    @Test func refusesURLsThatCannotBeLoaded() {
        #expect(InputFile(listed: "http://exa mple.com/a.jpg") == nil)
        #expect(InputFile(listed: "ftp://host/a.jpg") == nil)
        #expect(InputFile(listed: "https://") == nil)
    }

    @Test func shortensLongStemsToFitIn255Bytes() {
        // Given a path of 300 two-byte characters
        let long = String(repeating: "é", count: 300) + ".jpg"
        let name = naming.name(forListed: long, hash: StableHash.fnv1a64(long))
        // Then the name fits, keeps whole characters, and still ends with the hash, size and extension
        #expect(name.utf8.count <= 255)
        #expect(name.utf8.count >= 250)
        #expect(name.hasSuffix(".360.jpg"))
        #expect(name.hasPrefix("éé"))
    }
}
