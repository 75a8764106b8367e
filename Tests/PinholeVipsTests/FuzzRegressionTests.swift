import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Every input the fuzzer (scripts/fuzz.sh) ever flagged, kept in Tests/Fixtures/fuzz: each decodes or fails
/// with a typed ``PinholeError``, through both the async decoder and the synchronous fuzzing entry point.
@Suite(.timeLimit(scaledMinutes: 1))
struct FuzzRegressionTests {
    static let directory = Fixtures.root.appendingPathComponent("fuzz")

    /// File names in Tests/Fixtures/fuzz (synchronous: used to build test arguments).
    static let inputs: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()

    @Test func theRegressionCorpusIsThere() {
        #expect(!Self.inputs.isEmpty)
    }

    @Test(arguments: inputs)
    func fuzzFindingDecodesOrFailsWithATypedError(_ name: String) async throws {
        // Given a fuzzer finding
        let data = try await Fixtures.read(Self.directory.appendingPathComponent(name))
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 64), maxPixelCount: 4_000_000)
        // When it is decoded both ways
        let asynchronous: Result<DecodedImage, any Error>
        do { asynchronous = .success(try await VipsDecoder().decode(data, options: options)) } catch {
            asynchronous = .failure(error)
        }
        let synchronous = try await WorkerThreadPool.io.run { () -> Result<DecodedImage, PinholeError> in
            do {
                return .success(try VipsDecoder().decodeSynchronously(data, options: options))
            } catch let error as PinholeError {
                return .failure(error)
            }
        }
        // Then both agree: the same image, or the same typed error code
        switch (asynchronous, synchronous) {
        case (.success(let a), .success(let b)):
            #expect(a == b)
            #expect(max(a.image.width, a.image.height) <= 64)
        case (.failure(let a), .failure(let b)):
            #expect((a as? PinholeError)?.code == b.code, "\(a) vs \(b)")
        default:
            Issue.record("the two entry points disagree: \(asynchronous) vs \(synchronous)")
        }
    }
}
