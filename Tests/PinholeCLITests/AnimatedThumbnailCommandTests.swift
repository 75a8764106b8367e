import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import PinholeVips
import Testing

/// `pinhole thumbnail --animated`: the built binary writes animated GIF and WebP thumbnails whose frames,
/// durations and loop count are the source's, lists the frame counts in `--json`, and refuses what cannot animate.
@Suite(.timeLimit(scaledMinutes: 2))
struct AnimatedThumbnailCommandTests {
    struct Report: Decodable {
        struct Output: Decodable {
            var input: String
            var output: String
            var width: Int
            var height: Int
            var frames: Int?
        }
        var succeeded: Int
        var failed: Int
        var outputs: [Output]

        init(_ text: String) throws { self = try JSONDecoder().decode(Report.self, from: Data(text.utf8)) }
    }

    static func animation(_ name: String) -> URL {
        Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/animation/\(name)")
    }

    @Test(arguments: ["webp", "gif"])
    func animatedSourcesBecomeAnimatedThumbnailsWithTheirFramesDurationsAndLoop(format: String) async throws {
        // Given a 60-frame GIF (40 ms a frame, forever), a 3-frame WebP (100/200/300 ms, 3 loops) and a JPEG
        let directory = try TemporaryDirectory(prefix: "pinhole-animated")
        defer { directory.remove() }
        try directory.write(await readData(atPath: Self.animation("sixty.gif").path), to: "sixty.gif")
        try directory.write(await readData(atPath: Self.animation("blend.webp").path), to: "blend.webp")
        try directory.copyFixture("baseline.jpg")
        // When they are thumbnailed to 40 px with --animated
        let result = try await PinholeBinary.run(
            [
                "thumbnail", "sixty.gif", "blend.webp", "baseline.jpg", "--size", "40", "--animated", "--format",
                format, "--out", "out", "--json",
            ],
            in: directory.path)
        // Then all three succeed, and the report lists 60, 3 and 1 frames
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Report(result.stdout)
        #expect(report.succeeded == 3 && report.failed == 0)
        let byName = Dictionary(
            uniqueKeysWithValues: report.outputs.map { (URL(fileURLWithPath: $0.input).lastPathComponent, $0) })
        #expect(byName["sixty.gif"]?.frames == 60)
        #expect(byName["blend.webp"]?.frames == 3)
        #expect(byName["baseline.jpg"]?.frames == 1)
        // And the files written carry the source's frames, durations and loop count at the thumbnail's size
        let decoder = VipsDecoder()
        let sixty = try #require(byName["sixty.gif"])
        #expect(sixty.output.hasSuffix(".\(format)") && max(sixty.width, sixty.height) == 40)
        let sixtyInfo = try #require(
            try await decoder.animationInfo(
                await readData(atPath: directory.file(sixty.output)), options: DecodingOptions()))
        #expect(sixtyInfo.frameCount == 60 && sixtyInfo.loopCount == 0)
        #expect(sixtyInfo.frameDurations.allSatisfy { $0 == .milliseconds(40) })
        let blend = try #require(byName["blend.webp"])
        let blendInfo = try #require(
            try await decoder.animationInfo(
                await readData(atPath: directory.file(blend.output)), options: DecodingOptions()))
        #expect(blendInfo.frameCount == 3 && blendInfo.loopCount == 3)
        #expect(blendInfo.frameDurations == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        // And the JPEG is written as a still image of the same format
        let still = try #require(byName["baseline.jpg"])
        #expect(
            try await decoder.animationInfo(
                await readData(atPath: directory.file(still.output)), options: DecodingOptions()) == nil)
    }

    @Test(arguments: [
        ["--animated"], ["--animated", "--format", "jpeg"], ["--animated", "--format", "png"],
        ["--animated", "--format", "webp", "--size", "40,80"],
    ])
    func animatedWithAFormatThatCannotAnimateOrSeveralSizesIsAUsageError(flags: [String]) async throws {
        // Given an animated GIF
        let directory = try TemporaryDirectory(prefix: "pinhole-animated")
        defer { directory.remove() }
        try directory.write(await readData(atPath: Self.animation("sixty.gif").path), to: "sixty.gif")
        // When --animated is asked with no animated format, or with several sizes
        let result = try await PinholeBinary.run(
            ["thumbnail", "sixty.gif", "--out", "out"] + flags, in: directory.path)
        // Then the command exits 2 naming --animated, and writes nothing
        #expect(result.status == 2)
        #expect(result.stderr.contains("--animated"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/out"))
    }

    @Test func aGIFCutShortIsWrittenWithItsWholeFrames() async throws {
        // Given the 4-frame disposal GIF cut in frame 2 (3 frames declared, 2 whole)
        let directory = try TemporaryDirectory(prefix: "pinhole-animated-cut")
        defer { directory.remove() }
        try directory.write(await readData(atPath: Self.animation("truncated.gif").path), to: "truncated.gif")
        // When it is thumbnailed with --animated
        let result = try await PinholeBinary.run(
            ["thumbnail", "truncated.gif", "--size", "8", "--animated", "--format", "gif", "--out", "out", "--json"],
            in: directory.path)
        // Then it succeeds with the 2 whole frames, the second one green at (1, 1) as in the whole file
        #expect(result.status == 0, "\(result.stderr)")
        let output = try #require(try Report(result.stdout).outputs.first)
        #expect(output.frames == 2)
        let written = try await readData(atPath: directory.file(output.output))
        let frames = try await VipsDecoder().decodeFrames(written, range: 0..<2, options: DecodingOptions())
        try #require(frames.frames.count == 2)
        let pixel = frames.frames[1].pixel(x: 1, y: 1)
        #expect([pixel.r, pixel.g, pixel.b] == [0, 255, 0])
    }
}
