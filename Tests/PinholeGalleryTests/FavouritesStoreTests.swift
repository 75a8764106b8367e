import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestSupport
import Testing

@Suite(.timeLimit(scaledMinutes: 1))
struct FavouritesStoreTests {
    @Test(arguments: [
        (["HOME": "/home/ada"], "/home/ada/.local/share/pinhole/favourites.json"),
        (["HOME": "/home/ada", "XDG_DATA_HOME": "/data"], "/data/pinhole/favourites.json"),
        (["HOME": "/home/ada", "XDG_DATA_HOME": "relative/dir"], "/home/ada/.local/share/pinhole/favourites.json"),
    ])
    func fileLivesUnderTheXDGDataHome(_ environment: [String: String], _ path: String) {
        #expect(FavouritesStore.defaultFileURL(environment: environment).path == path)
    }

    @Test func missingFileIsAnEmptySetWithoutAProblem() async throws {
        let scratch = try TemporaryDirectory(prefix: "pinhole-gallery")
        defer { scratch.remove() }
        let directory = scratch.url
        let store = FavouritesStore(fileURL: directory.appendingPathComponent("none/favourites.json"))
        #expect(await store.load() == FavouritesStore.Loaded(ids: [], problem: nil))
    }

    @Test func savesSortedIdsAndReadsThemBack() async throws {
        // Given a store in a directory that does not exist yet
        let scratch = try TemporaryDirectory(prefix: "pinhole-gallery")
        defer { scratch.remove() }
        let directory = scratch.url
        let store = FavouritesStore(fileURL: directory.appendingPathComponent("pinhole/favourites.json"))
        // When ids are saved twice
        try await store.save(["b", "a"])
        try await store.save(["c", "b", "a"])
        // Then the last set is read back, and the file is the documented JSON
        #expect(await store.load().ids == ["a", "b", "c"])
        let url = store.fileURL
        let text = try await WorkerThreadPool.io.run { try String(contentsOf: url, encoding: .utf8) }
        #expect(text.contains(#""version" : 1"#) && text.contains(#""favourites" : ["#))
    }
}
