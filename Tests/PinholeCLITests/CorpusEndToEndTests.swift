import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// `pinhole thumbnail` over the real-photo corpus (scripts/make-corpus.sh; `make test` builds it first).
@Suite(.timeLimit(scaledMinutes: 3))
struct CorpusEndToEndTests {
    /// `$PINHOLE_CORPUS`, else `${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/corpus`.
    static let corpus: String = {
        let environment = ProcessInfo.processInfo.environment
        if let corpus = environment["PINHOLE_CORPUS"], !corpus.isEmpty { return corpus }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.cache")
        return cache + "/pinhole/corpus"
    }()

    static var corpusExists: Bool { FileManager.default.fileExists(atPath: corpus + "/MANIFEST.tsv") }

    /// One manifest row: file name and displayed size (orientations 5–8 swap the stored sides).
    struct Photo {
        var file: String
        var width: Int
        var height: Int
    }

    static func manifest() async throws -> [Photo] {
        let text = try await readText(atPath: corpus + "/MANIFEST.tsv")
        return text.split(separator: "\n").dropFirst().map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let (width, height) = (Int(columns[2]) ?? 0, Int(columns[3]) ?? 0)
            let swapped = ["LeftTop", "RightTop", "RightBottom", "LeftBottom"].contains { columns[6].contains($0) }
            return Photo(file: columns[0], width: swapped ? height : width, height: swapped ? width : height)
        }
    }

    @Test(.enabled(if: corpusExists, "no corpus: run scripts/make-corpus.sh (make test does)"))
    func thumbnailsEveryCorpusPhotoToTheFittedSize() async throws {
        // Given the corpus and its manifest (at least 20 real photos)
        let photos = try await Self.manifest()
        #expect(photos.count >= 20)
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }

        // When the whole corpus is thumbnailed at 360 px with a contact sheet
        let result = try await PinholeBinary.run(
            ["thumbnail", Self.corpus, "--out", "out", "--contact-sheet", "sheet.jpg", "--json"], in: directory.path)

        // Then every photo succeeds, each thumbnail file has the displayed size fitted into 360 px (±1 px for
        // rounding), and the contact sheet is written
        #expect(result.status == 0, "stdout: \(result.stdout.prefix(2000))")
        let report = try JSONReport(result.stdout)
        #expect(report.succeeded == photos.count)
        #expect(report.errors.isEmpty)
        let outputs = Dictionary(
            uniqueKeysWithValues: report.outputs.map {
                (URL(fileURLWithPath: $0.input).lastPathComponent, $0)
            })
        for photo in photos {
            let output = try #require(outputs[photo.file], "\(photo.file) has no thumbnail")
            let expected = ThumbnailOptions(maxPixelSize: 360).fittedSize(width: photo.width, height: photo.height)
            let data = try await readData(atPath: directory.file(output.output))
            let size = try #require(ImageHeader.size(of: data))
            #expect(
                abs(size.width - expected.width) <= 1 && abs(size.height - expected.height) <= 1,
                "\(photo.file): \(size.width)×\(size.height), expected \(expected.width)×\(expected.height)")
        }
        #expect(FileManager.default.fileExists(atPath: directory.file("sheet.jpg")))
    }
}
