import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

/// `an:1`: an animated GIF or WebP source is answered with an animation in a format that can carry it (WebP or
/// GIF, asked or negotiated), with the source's frames, durations and loop count at the thumbnail's size; within
/// the server's frame and pixel limits, else the first frame; a source cut short is answered with its whole frames
/// and never kept.
@Suite(.timeLimit(scaledMinutes: 2))
struct AnimatedAnswerEndToEndTests {
    /// `Tests/Fixtures/animation/<name>`, located from this file.
    static func fixture(_ name: String) async throws -> Data {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try await readData(atPath: directory.appendingPathComponent("Fixtures/animation/\(name)").path)
    }

    /// The origin serving the 60-frame GIF (frame i grey i × 4, 40 ms each, forever) and the 3-frame WebP.
    static func harness(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> ServerHarness {
        let harness = try ServerHarness { configuration, _ in configure(&configuration) }
        harness.origin.route("/sixty.gif", .image(try await fixture("sixty.gif"), contentType: "image/gif"))
        harness.origin.route("/blend.webp", .image(try await fixture("blend.webp"), contentType: "image/webp"))
        harness.origin.route("/truncated.gif", .image(try await fixture("truncated.gif"), contentType: "image/gif"))
        return harness
    }

    static func info(_ body: Data) async throws -> AnimationInfo? {
        try await VipsDecoder().animationInfo(body, options: DecodingOptions())
    }

    @Test func anAnimatedSourceIsAnsweredWithItsFramesDurationsAndLoopInTheNegotiatedFormat() async throws {
        // Given the 60-frame GIF, asked for at 32 px with an:1 by a client that names WebP and one that does not
        let harness = try await Self.harness()
        defer { Task { await harness.stop() } }
        let path = harness.signedPath("an:1/w:32", plain: "/sixty.gif")
        let source = try await VipsDecoder().decodeFrames(
            try await Self.fixture("sixty.gif"), range: 0..<60,
            options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 32)))
        let webPClient = try await harness.get(path, headers: ["Accept": "image/webp,*/*;q=0.8"])
        let oldClient = try await harness.get(path, headers: ["Accept": "*/*"])
        // Then the first gets an animated WebP, the second an animated GIF, both varying on Accept
        #expect(webPClient.header("Content-Type") == "image/webp")
        #expect(oldClient.header("Content-Type") == "image/gif")
        for (answer, isGIF) in [(webPClient, false), (oldClient, true)] {
            #expect(answer.status == 200 && answer.header("Vary") == "Accept")
            let info = try #require(try await Self.info(answer.body))
            // And each holds the 60 frames of 40 ms, played forever
            #expect(info.frameCount == 60 && info.loopCount == 0)
            #expect(info.frameDurations.allSatisfy { $0 == .milliseconds(40) })
            // And frame i is the source's frame i at 32 × 32: its grey exactly enough in GIF; in lossy WebP within
            // what libwebp's animation encoder leaves unchanged between frames at q80 (a few steps of 4 levels)
            let frames = try await VipsDecoder().decodeFrames(answer.body, range: 0..<60, options: DecodingOptions())
            #expect(frames.frames.allSatisfy { $0.width == 32 && $0.height == 32 })
            let tolerance = isGIF ? 6 : 40
            for index in isGIF ? Array(0..<60) : [0, 30, 59] {
                let got = Int(frames.frames[index].pixel(x: 31, y: 31).g)
                let want = Int(source.frames[index].pixel(x: 31, y: 31).g)
                #expect(abs(got - want) <= tolerance, "frame \(index): \(got), the source's \(want)")
            }
        }
        // And the source was downloaded once for both
        #expect(harness.origin.requestCount(for: "/sixty.gif") == 1)
    }

    @Test func withoutAnAnimationOptionOrInAStillFormatTheAnswerIsTheFirstFrame() async throws {
        // Given the 60-frame GIF
        let harness = try await Self.harness()
        defer { Task { await harness.stop() } }
        // When it is asked for without an:1, with da:1, and with an:1 as PNG and as JPEG
        let paths = [
            harness.signedPath("w:32/f:webp", plain: "/sixty.gif"),
            harness.signedPath("da:1/w:32/f:gif", plain: "/sixty.gif"),
            harness.signedPath("an:1/w:32/f:png", plain: "/sixty.gif"),
            harness.signedPath("an:1/w:32/f:jpg", plain: "/sixty.gif"),
        ]
        for path in paths {
            let answer = try await harness.get(path, headers: ["Accept": "image/webp"])
            // Then each is a still of frame 0 (grey 0 on the right)
            #expect(answer.status == 200, "\(path)")
            #expect(try await Self.info(answer.body) == nil, "\(path)")
            #expect(try await ServerHarness.decoded(answer.body).image.pixel(x: 31, y: 16).g <= 6, "\(path)")
        }
        // And da:0 asks for the animation as an:1 does
        let asked = try await harness.get(harness.signedPath("da:0/w:32/f:webp", plain: "/sixty.gif"))
        #expect(try await Self.info(asked.body)?.frameCount == 60)
    }

    @Test func stillAndAnimatedAnswersOfOneURLAreKeptApart() async throws {
        // Given the WebP of 3 frames (100, 200, 300 ms, 3 loops), asked for as a still and animated, twice each
        let harness = try await Self.harness()
        defer { Task { await harness.stop() } }
        let still = harness.signedPath("w:20/f:webp", plain: "/blend.webp")
        let animated = harness.signedPath("an:1/w:20/f:webp", plain: "/blend.webp")
        let first = (try await harness.get(still), try await harness.get(animated))
        let second = (try await harness.get(still), try await harness.get(animated))
        // Then the still is one frame and the animation three with the source's timing, each served again the same
        #expect(try await Self.info(first.0.body) == nil)
        let info = try #require(try await Self.info(first.1.body))
        #expect(info.frameCount == 3 && info.loopCount == 3)
        #expect(info.frameDurations == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        #expect(second.0.body == first.0.body && second.1.body == first.1.body)
        #expect(first.0.header("ETag") != first.1.header("ETag"))
        // And the second pair came from the encoded cache: two encodes for four answers
        #expect(harness.server.service.encodes == 2)
    }

    @Test func aSourcePastTheFrameOrPixelLimitIsAnsweredWithItsFirstFrame() async throws {
        // Given servers that allow 59 frames, and 60 × 32 × 32 - 1 pixels over all frames
        let byFrames = try await Self.harness { $0.maxAnimationFrames = 59 }
        let byPixels = try await Self.harness { $0.maxAnimationPixels = 60 * 32 * 32 - 1 }
        let allowed = try await Self.harness {
            $0.maxAnimationFrames = 60
            $0.maxAnimationPixels = 60 * 32 * 32
        }
        defer { Task { for harness in [byFrames, byPixels, allowed] { await harness.stop() } } }
        // When each is asked for the 60-frame GIF at 32 px animated
        for harness in [byFrames, byPixels] {
            let answer = try await harness.get(harness.signedPath("an:1/w:32/f:webp", plain: "/sixty.gif"))
            // Then the first two answer with a still of frame 0
            #expect(answer.status == 200)
            #expect(try await Self.info(answer.body) == nil)
            #expect(try await ServerHarness.decoded(answer.body).image.pixel(x: 31, y: 16).g <= 6)
        }
        // And the one at exactly the limits with the animation
        let answer = try await allowed.get(allowed.signedPath("an:1/w:32/f:webp", plain: "/sixty.gif"))
        #expect(try await Self.info(answer.body)?.frameCount == 60)
    }

    @Test func animationMemoryStaysWithinTheMemoryBudget() {
        // Given a 16 MB budget (a work share of 10 MB) and the default limit of 16 M pixels
        var configuration = ServerConfiguration()
        configuration.memoryBudget = 16_000_000
        // Then an animated answer may hold an eighth of the work share in pixels (frames and the encoder's copy)
        #expect(configuration.animationPixelLimit == configuration.memoryShares.work / 8)
        configuration.memoryBudget = 1_000_000_000
        #expect(configuration.animationPixelLimit == 16_000_000)
        // And the pipeline's animation frames come out of the image cache's share, not beside it
        let pipeline = ServerPipeline.make(configuration).configuration
        let share = configuration.memoryShares.imageCache
        #expect(pipeline.animationFrameBudget == share / 8)
        #expect(pipeline.memoryCache?.configuration.costLimit == share - share / 8)
        // And the pipeline plays no more than an answer may hold, so it decodes no frame of an animation past them
        #expect(pipeline.maxPlayedFrameCount == configuration.maxAnimationFrames)
        #expect(pipeline.maxPlayedPixelCount == configuration.animationPixelLimit)
    }
}

extension AnimatedAnswerEndToEndTests {
    @Test func aGIFDeclaringThousandsOfFramesIsRefusedAnimatedAsAsAStill() async throws {
        // Given a 230 KB GIF of 10,000 frames (more than an untrusted source may declare)
        let harness = try await Self.harness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/bomb.gif", .image(try await Self.fixture("bomb.gif"), contentType: "image/gif"))
        // When it is asked for animated and as a still
        let animated = try await harness.get(harness.signedPath("an:1/w:32/f:webp", plain: "/bomb.gif"))
        let still = try await harness.get(harness.signedPath("w:32/f:webp", plain: "/bomb.gif"))
        // Then both are refused with the same typed error before any frame is decoded
        #expect(animated.status == still.status && animated.status >= 400 && animated.status < 500)
        #expect(animated.errorCode == "too_many_frames" && still.errorCode == "too_many_frames")
        #expect(harness.server.service.configuration.pipeline.metrics.framesDecoded == 0)
    }
}

extension AnimatedAnswerEndToEndTests {
    @Test func aGIFCutShortIsAnsweredWithItsWholeFramesAndNeverKept() async throws {
        // Given the 4-frame disposal GIF cut in frame 2 (3 frames declared, 2 whole)
        let harness = try await Self.harness()
        defer { Task { await harness.stop() } }
        let path = harness.signedPath("an:1/w:8/f:gif", plain: "/truncated.gif")
        // When it is asked for animated, twice
        let first = try await harness.get(path)
        let second = try await harness.get(path)
        // Then both answers are the 2 whole frames (red, then green at (1, 1)), marked no-store
        for answer in [first, second] {
            #expect(answer.status == 200)
            #expect(answer.header("Cache-Control") == "no-store")
            let frames = try await VipsDecoder().decodeFrames(answer.body, range: 0..<2, options: DecodingOptions())
            try #require(frames.frames.count == 2)
            #expect(try await Self.info(answer.body)?.frameCount == 2)
            let pixel = frames.frames[1].pixel(x: 1, y: 1)
            #expect([pixel.r, pixel.g, pixel.b] == [0, 255, 0])
        }
        // And nothing kept it: each answer was made from a new download
        #expect(harness.server.service.encodes == 2)
        #expect(harness.origin.requestCount(for: "/truncated.gif") == 2)
        // And as a still it is refused as truncated, as any image cut short is
        let still = try await harness.get(harness.signedPath("w:8/f:gif", plain: "/truncated.gif"))
        #expect(still.status == 422 && still.errorCode == "truncated")
    }
}

extension AnimatedAnswerEndToEndTests {
    @Test func aGIFCutShortPastItsFirstRunIsAnsweredWithAllItsWholeFrames() async throws {
        // Given the 60-frame GIF cut at 5,000 bytes: more whole frames than the first run of 8 decoded
        let harness = try await Self.harness()
        defer { Task { await harness.stop() } }
        let whole = try await Self.fixture("sixty.gif")
        let cut = Data(whole.prefix(5000))
        harness.origin.route("/cut.gif", .image(cut, contentType: "image/gif"))
        let expected = try await VipsDecoder().decodeFrames(cut, range: 0..<60, options: DecodingOptions())
        try #require(expected.endsEarly && expected.frames.count > 8 && expected.frames.count < 60)
        // When it is asked for animated
        let answer = try await harness.get(harness.signedPath("an:1/w:32/f:gif", plain: "/cut.gif"))
        // Then the answer holds every whole frame, the last one the source's, and is never stored
        #expect(answer.status == 200, "\(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        #expect(answer.header("Cache-Control") == "no-store")
        let info = try #require(try await Self.info(answer.body))
        #expect(info.frameCount == expected.frames.count)
        let frames = try await VipsDecoder().decodeFrames(answer.body, range: 0..<60, options: DecodingOptions())
        let last = expected.frames.count - 1
        let got = Int(try #require(frames.frames.last).pixel(x: 31, y: 31).g)
        #expect(abs(got - last * 4) <= 6, "frame \(last): \(got)")
    }
}
