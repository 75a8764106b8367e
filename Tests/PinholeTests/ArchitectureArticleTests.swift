import Foundation
import PinholeTestSupport
import Testing

/// The DocC article that maps each stage of a request's path to its file stays true as files move.
@Suite(.timeLimit(scaledMinutes: 1))
struct ArchitectureArticleTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `.swift` paths the article names in backticks: under `Sources/Pinhole` unless they start `Sources/`.
    static func namedFiles(in article: String) -> [String] {
        article.matches(of: #/`([A-Za-z0-9_+/]+\.swift)`/#).map { match in
            let path = String(match.output.1)
            return path.hasPrefix("Sources/") ? path : "Sources/Pinhole/\(path)"
        }
    }

    @Test func everyFileTheArchitectureArticleNamesExists() throws {
        // Given the article
        let url = Self.repository.appendingPathComponent("Sources/Pinhole/Pinhole.docc/Architecture.md")
        let article = try String(contentsOf: url, encoding: .utf8)

        // When the files it names are looked up
        let named = Self.namedFiles(in: article)
        let missing = named.filter {
            !FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent($0).path)
        }

        // Then there are many, and each exists
        #expect(named.count >= 20)
        #expect(missing.isEmpty, "named in Architecture.md but missing: \(missing)")
    }
}
