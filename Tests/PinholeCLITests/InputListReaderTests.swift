import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

#if canImport(Glibc)
    import Glibc
#endif

/// Reading an input list a chunk at a time: lines split across chunks, CRLF, blank lines, and bad lines that
/// are reported without being kept.
@Suite(.timeLimit(scaledMinutes: 1))
struct InputListReaderTests {
    private func entries(of text: [UInt8], chunkBytes: Int) async throws -> [InputListReader.Entry] {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(Data(text), to: "list.txt")
        let reader = try await InputListReader(path: directory.file("list.txt"), chunkBytes: chunkBytes)
        var entries: [InputListReader.Entry] = []
        while let entry = try await reader.next() { entries.append(entry) }
        return entries
    }

    private func inputs(_ entries: [InputListReader.Entry]) -> [String] {
        entries.compactMap { if case .input(let text, _, _) = $0 { text } else { nil } }
    }

    @Test(arguments: [1, 3, 7, 65_536])
    func readsLinesWhateverTheChunkSize(chunkBytes: Int) async throws {
        // Given a list with CRLF and LF lines, blank lines, spaces inside a name, and no final newline
        let text = "a.jpg\r\n\nsub dir/b c.png\n   \n\t\nhttps://img.example/x.jpg?s=1\r\nlast.webp"

        // When read in chunks of `chunkBytes`
        let entries = try await entries(of: Array(text.utf8), chunkBytes: chunkBytes)

        // Then the four inputs come out whole, in order, with their physical line numbers and stable hashes
        #expect(inputs(entries) == ["a.jpg", "sub dir/b c.png", "https://img.example/x.jpg?s=1", "last.webp"])
        #expect(entries.map(\.lineNumber) == [1, 3, 6, 7])
        #expect(entries.map(\.hash) == inputs(entries).map { StableHash.fnv1a64($0) })
    }

    @Test func reportsBadLinesAndGoesOn() async throws {
        // Given a line too long, one with a NUL byte and one that is not UTF-8, between good ones
        var bytes = Array("good1.jpg\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: InputListReader.maxLineBytes + 10) + [10]
        bytes += Array("nul".utf8) + [0] + Array(".jpg\n".utf8)
        bytes += [0x66, 0xFF, 0xFE, 0x2E, 0x6A, 10]
        bytes += Array("good2.jpg\n".utf8)

        // When read in small chunks
        let entries = try await entries(of: bytes, chunkBytes: 1000)

        // Then the good lines are inputs and each bad one is an invalid entry that says why
        #expect(inputs(entries) == ["good1.jpg", "good2.jpg"])
        let reasons = entries.compactMap { if case .invalid(let reason, _, _) = $0 { reason } else { nil } }
        #expect(reasons.count == 3)
        #expect(reasons[0].contains("longer than 16384 bytes"))
        #expect(reasons[1].contains("NUL"))
        #expect(reasons[2].contains("UTF-8"))
        #expect(entries.map(\.lineNumber) == [1, 2, 3, 4, 5])
    }

    @Test func failsWithATypedErrorForAMissingListOrADirectory() async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        await #expect {
            _ = try await InputListReader(path: directory.file("missing.txt"))
        } throws: { error in
            (error as? PinholeError)?.code == .fileNotFound
        }
        let reader = try await InputListReader(path: directory.path)
        await #expect {
            _ = try await reader.next()
        } throws: { error in
            (error as? PinholeError)?.code == .fileUnreadable
        }
    }

    @Test func yieldsEachLineAsItArrivesOnAPipe() async throws {
        // Given a pipe whose writer has sent two lines and keeps it open
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd) }
        let first = Array("one.jpg\ntwo.jpg\n".utf8)
        #expect(write(writeEnd, first, first.count) == first.count)
        let reader = try await InputListReader(path: "/dev/fd/\(readEnd)")

        // When the reader reads, it gets both lines before the writer has finished
        #expect(try await reader.next().map(inputText) == "one.jpg")
        #expect(try await reader.next().map(inputText) == "two.jpg")

        // And after the writer sends a third line and closes, it gets that one and the end
        let rest = Array("three.jpg\n".utf8)
        #expect(write(writeEnd, rest, rest.count) == rest.count)
        close(writeEnd)
        #expect(try await reader.next().map(inputText) == "three.jpg")
        #expect(try await reader.next() == nil)
    }

    private func inputText(_ entry: InputListReader.Entry) -> String? {
        if case .input(let text, _, _) = entry { text } else { nil }
    }
}

extension InputListReader.Entry {
    var lineNumber: Int {
        switch self {
        case .input(_, _, let line), .invalid(_, _, let line): line
        }
    }
}
