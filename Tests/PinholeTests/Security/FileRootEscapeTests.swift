import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// The untrusted file root against paths that lead out of it: symbolic-link chains longer than Foundation's
/// resolver follows, link texts longer than its buffer, links swapped after the check, and a root that is itself a
/// link. Real files in a temporary directory; the check (``UntrustedSourceGuard``) and the read
/// (``FileDataLoader/allowedRoot``) must each refuse on their own.
@Suite(.timeLimit(scaledMinutes: 1))
struct FileRootEscapeTests {
    /// `root/` (allowed) and `outside/secret.jpg` beside it.
    final class Tree {
        private let scratch: TemporaryDirectory
        var base: URL { scratch.url }
        var root: URL { base.appendingPathComponent("root") }
        var secret: URL { base.appendingPathComponent("outside/secret.jpg") }

        init() throws {
            scratch = try TemporaryDirectory(prefix: "pinhole-root-escape")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: base.appendingPathComponent("outside"), withIntermediateDirectories: true)
            try Data("outside the root".utf8).write(to: secret)
            try Data("inside the root".utf8).write(to: root.appendingPathComponent("inside.jpg"))
        }

        /// `root/name` → `target` (a path text, relative or absolute).
        @discardableResult
        func link(_ name: String, to target: String) throws -> URL {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
            return url
        }

        /// A chain `name0 → … → name{count-1}` of links inside the root whose first link points at `target`.
        func chain(_ name: String, count: Int, to target: String) throws -> URL {
            var last = try link("\(name)0", to: target)
            for index in 1..<count { last = try link("\(name)\(index)", to: "\(name)\(index - 1)") }
            return last
        }
    }

    static func expectRefused(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: PinholeError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.code == .untrustedSource, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test func aLinkChainLongerThanFoundationFollowsIsRefused() throws {
        // Given a chain of 36 links inside the root that ends at a file outside it (the kernel follows 40;
        // Foundation's resolvingSymlinksInPath gives up earlier and returns the path unresolved, under the root)
        let tree = try Tree()
        let end = try tree.chain("hop", count: 36, to: tree.secret.path)
        #expect(FileManager.default.contents(atPath: end.path) == Data("outside the root".utf8))
        // When the untrusted guard checks it, Then it is refused as outside the root
        let sourceGuard = UntrustedSourceGuard(allowedFileRoot: tree.root)
        Self.expectRefused { try sourceGuard.check(end) }
    }

    @Test func aLinkWhoseTextOverflowsFoundationsBufferIsRefused() throws {
        // Given a link inside the root whose text is 3,000 bytes of "./" before "../outside/secret.jpg"
        let tree = try Tree()
        let long = try tree.link("long", to: String(repeating: "./", count: 1500) + "../outside/secret.jpg")
        #expect(FileManager.default.contents(atPath: long.path) == Data("outside the root".utf8))
        // When the untrusted guard checks it, Then it is refused
        let sourceGuard = UntrustedSourceGuard(allowedFileRoot: tree.root)
        Self.expectRefused { try sourceGuard.check(long) }
    }

    @Test func aLoopFailsClosedAndAMissingFileIsNotFound() throws {
        // Given two links pointing at each other, and a name with nothing behind it
        let tree = try Tree()
        let loop = try tree.link("a", to: "b")
        try tree.link("b", to: "a")
        let sourceGuard = UntrustedSourceGuard(allowedFileRoot: tree.root)
        // Then the loop is refused, and the missing file says so
        Self.expectRefused { try sourceGuard.check(loop) }
        let missing = #expect(throws: PinholeError.self) {
            try sourceGuard.check(tree.root.appendingPathComponent("missing.jpg"))
        }
        #expect(missing?.code == .fileNotFound)
    }

    @Test func theReadRefusesAFileOutsideTheRootWhateverPassedTheCheck() async throws {
        // Given a loader confined to the root, and a link inside it to the file outside (as if swapped in after
        // the guard checked a regular file there), also through a 36-link chain
        let tree = try Tree()
        let swapped = try tree.link("swapped.jpg", to: tree.secret.path)
        let chained = try tree.chain("hop", count: 36, to: tree.secret.path)
        let loader = FileDataLoader(allowedRoot: tree.root)
        // When it reads them, Then both are refused, and a file inside is read
        for url in [swapped, chained] {
            let error = await #expect(throws: PinholeError.self) {
                _ = try await loader.loadData(for: DataRequest(url: url))
            }
            #expect(error?.code == .untrustedSource, "\(url.lastPathComponent): \(String(describing: error))")
        }
        let inside = try await loader.loadData(for: DataRequest(url: tree.root.appendingPathComponent("inside.jpg")))
        #expect(inside.data == Data("inside the root".utf8))
    }

    @Test func aSiblingWhoseNameIsUnicodeEquivalentToTheRootIsOutsideIt() {
        // Given a root named with a composed é and a sibling named with e + combining acute (another directory)
        let root = "/srv/caf\u{E9}"
        let sibling = "/srv/cafe\u{301}/secret.jpg"
        // Then the sibling is outside (names compare as the kernel compares them: byte by byte)
        #expect(!ConfinedPath.isInside(sibling, root: root))
        #expect(ConfinedPath.isInside(root + "/inside.jpg", root: root))
        #expect(!ConfinedPath.isInside(root, root: root) && !ConfinedPath.isInside(root + "-sibling/x", root: root))
    }

    @Test func aRootThatIsALinkStillServesTheFilesInsideIt() async throws {
        // Given the allowed root named through a link to it
        let tree = try Tree()
        let alias = tree.base.appendingPathComponent("alias")
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: tree.root.path)
        let file = alias.appendingPathComponent("inside.jpg")
        // When a file under the alias is checked and read, Then both pass
        try UntrustedSourceGuard(allowedFileRoot: alias).check(file)
        let read = try await FileDataLoader(allowedRoot: alias).loadData(for: DataRequest(url: file))
        #expect(read.data == Data("inside the root".utf8))
    }

    @Test func theUntrustedPipelineConfinesItsFileReadsToTheRoot() async throws {
        // Given an untrusted pipeline whose file loader is the default one
        let tree = try Tree()
        let pool = WorkerThreadPool(threadCount: 1, name: "test-file-reads")
        var configuration = ImagePipeline.Configuration(
            decoder: PayloadDecoder(),
            dataLoader: SchemeRoutingDataLoader(http: VersionedLoader(), file: FileDataLoader(pool: pool)))
        configuration.sourcePolicy = .untrusted(allowedFileRoot: tree.root)
        let (adjusted, _) = ImagePipeline.applyingSourcePolicy(to: configuration)
        // Then its file loader reads only under the root, on the caller's threads
        let routing = try #require(adjusted.dataLoader as? SchemeRoutingDataLoader)
        let file = try #require(routing.file as? FileDataLoader)
        #expect(file.allowedRoot == tree.root)
        #expect(file.pool === pool)
    }
}
