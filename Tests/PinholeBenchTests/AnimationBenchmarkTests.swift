import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import PinholeBench

/// `pinhole bench animation`'s parts: the pans its sources are made of, and a short real play whose figures
/// agree with each other and with the frame budget it was given.
@Suite(.timeLimit(scaledMinutes: 2))
struct AnimationBenchmarkTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func aPanMovesATwoThirdsWindowFromTheTopLeftToTheBottomRight() {
        // Given a 30×15 grey image whose pixel (x, y) is x + 30 y
        let photo = PixelImage(
            width: 30, height: 15, pixelFormat: .gray8, pixels: (0..<450).map { UInt8($0 % 256) })
        // When it is panned over 4 frames
        let frames = AnimationSources.pan(across: photo, frames: 4)
        // Then each frame is 20×10, the first starts at (0, 0), the last at (10, 5), and they all differ
        #expect(frames.count == 4 && frames.allSatisfy { $0.width == 20 && $0.height == 10 })
        #expect(frames[0].pixels[0] == 0 && frames[0].pixels[20] == 30)
        #expect(frames[3].pixels[0] == UInt8((10 + 30 * 5) % 256))
        #expect(Set(frames.map(\.pixels)).count == 4)
    }

    /// A corpus of two real photos (the failure corpus' JPEGs).
    static func corpus() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "pinhole-animation-bench")
        for name in ["baseline.jpg", "orient-1.jpg"] {
            let source = repositoryRoot.appendingPathComponent("Tests/Fixtures/cases/inputs/\(name)")
            try directory.write(Data(contentsOf: source), to: name)
        }
        return directory
    }

    @Test(arguments: [(budget: 1 << 30, evicts: false), (budget: 20_000, evicts: true)])
    func aShortPlayShowsFramesWithinItsBudget(budget: Int, evicts: Bool) async throws {
        // Given two 12-frame pans of real photos at 48 px, played for 1 s with a budget that holds them or not
        let corpus = try Self.corpus()
        var configuration = AnimationBenchmark.Configuration(corpus: corpus.path)
        (configuration.animations, configuration.frames, configuration.seconds) = (2, 12, 1)
        (configuration.size, configuration.frameBudget) = (48, budget)
        // When the benchmark runs
        let result = try await AnimationBenchmark(configuration: configuration).run()
        // Then the reference decoded and held every frame, and the play ticked for its second
        #expect(result.referenceFramesDecoded == 24)
        #expect(result.frameBytes > 0 && result.referenceHeldBytes / 24 == result.frameBytes)
        #expect(result.ticks > 0 && result.playedSeconds >= 1)
        #expect(result.framesShown <= result.framesDue + result.animations)
        // And the budget's peak stays within it; the small one evicted frames once more were decoded than it holds
        // (how many a slow build decodes in a second is not the test's business), the large one never did
        #expect(result.frameBudget == budget && result.peakFrameBytes <= budget)
        if evicts {
            let decodedBytes = (result.framesDecoded + 2) * result.frameBytes  // + each row's first frame
            #expect(decodedBytes <= budget * 2 || result.framesEvicted > 0)
        } else {
            #expect(result.framesEvicted == 0)
        }
        #expect(result.text.contains("2 animations × 12 frames"))
    }

    @Test func tooFewPhotosIsAnErrorNamingTheCorpusScript() async throws {
        let corpus = try Self.corpus()
        var configuration = AnimationBenchmark.Configuration(corpus: corpus.path)
        configuration.animations = 3
        let error = await #expect(throws: PinholeError.self) {
            _ = try await AnimationBenchmark(configuration: configuration).run()
        }
        #expect(error?.message.contains("make-corpus.sh") == true)
    }
}
