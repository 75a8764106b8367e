import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The file loader reads regular files only, and every other kind of path gets a typed error, never a hang.
@Suite(.timeLimit(scaledMinutes: 1))
struct FileDataLoaderTests {
    private static func load(_ url: URL, maxFileBytes: Int = 200_000_000) async -> Result<Data, PinholeError> {
        do {
            let loader = FileDataLoader(maxFileBytes: maxFileBytes)
            return .success(try await loader.loadData(for: DataRequest(url: url)).data)
        } catch let error as PinholeError {
            return .failure(error)
        } catch {
            return .failure(PinholeError(.invalidRequest, "unexpected \(error)"))
        }
    }

    @Test func readsARegularFileAndOneBehindASymbolicLink() async throws {
        // Given a file of distinct bytes and a symbolic link to it
        let temporary = try TemporaryDirectory(prefix: "pinhole-file-loader")
        defer { temporary.remove() }
        let directory = temporary.url
        let bytes = Data((0..<1000).map { UInt8($0 % 251) })
        let file = directory.appendingPathComponent("a.jpg")
        try await writeData(bytes, toPath: file.path)
        let link = directory.appendingPathComponent("link.jpg")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)

        // When both are loaded
        // Then both give the file's bytes
        #expect(try await Self.load(file).get() == bytes)
        #expect(try await Self.load(link).get() == bytes)
    }

    @Test func aFIFOWithNoWriterIsRefusedAtOnceInsteadOfBlockingForEver() async throws {
        // Given a named pipe that nothing writes to (opening it for reading would block until a writer comes)
        let temporary = try TemporaryDirectory(prefix: "pinhole-file-loader")
        defer { temporary.remove() }
        let directory = temporary.url
        let fifo = directory.appendingPathComponent("pipe.jpg")
        #expect(mkfifo(fifo.path, 0o600) == 0)

        // When it is loaded
        let result = await Self.load(fifo)

        // Then it fails as unreadable, saying what it is
        let error = try #require(result.failure)
        #expect(error.code == .fileUnreadable)
        #expect(error.message.contains("a FIFO"), "\(error.message)")
    }

    @Test(arguments: ["/dev/zero", "/dev/null"])
    func aDeviceIsRefused(path: String) async throws {
        // Given a character device (/dev/zero never ends; /dev/null reads as empty)
        // When it is loaded
        let result = await Self.load(URL(fileURLWithPath: path))

        // Then it fails as unreadable, not as a read without end or as an empty image
        let error = try #require(result.failure)
        #expect(error.code == .fileUnreadable)
        #expect(error.message.contains("a character device"), "\(error.message)")
    }

    @Test func aMissingFileADirectoryAndAnOversizedFileGetTheirOwnErrors() async throws {
        // Given a directory holding one 100-byte file
        let temporary = try TemporaryDirectory(prefix: "pinhole-file-loader")
        defer { temporary.remove() }
        let directory = temporary.url
        let file = directory.appendingPathComponent("b.png")
        try await writeData(Data(count: 100), toPath: file.path)

        // When a missing file, the directory, and the file with a 99-byte limit are loaded
        let missing = await Self.load(directory.appendingPathComponent("none.jpg"))
        let folder = await Self.load(directory)
        let tooLarge = await Self.load(file, maxFileBytes: 99)

        // Then each gets its own code
        #expect(missing.failure?.code == .fileNotFound)
        #expect(folder.failure?.code == .fileUnreadable)
        #expect(folder.failure?.message.contains("a directory") == true)
        #expect(tooLarge.failure?.code == .dataTooLarge)
        #expect(try await Self.load(file, maxFileBytes: 100).get().count == 100)
    }
}

extension Result {
    /// The error of a failure, `nil` for a success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
