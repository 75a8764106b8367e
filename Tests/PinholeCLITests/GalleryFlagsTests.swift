import Foundation
import Testing

@testable import pinhole

/// `pinhole gallery`'s flags are checked before anything starts.
struct GalleryFlagsTests {
    @Test(arguments: [
        ["--log", "/tmp/pinhole-same", "--stats-json", "/tmp/pinhole-same"],
        ["--log", "/tmp/./pinhole-same", "--stats-json", "/tmp/pinhole-same"],
    ])
    func theLogAndTheFiguresCannotShareAFile(arguments: [String]) async {
        // Given --log and --stats-json naming one file (the log is appended to, the figures replace the file),
        // When the gallery is started, Then it is a usage error before any feed is read
        await #expect(throws: UsageError.self) { try await GalleryCommand.run(arguments + ["/nonexistent/feed.json"]) }
    }
}
