import Foundation
import Pinhole
import Testing

/// Locates and reads test fixtures (Tests/Fixtures/...) relative to this file; reads run on the I/O pool.
enum Fixtures {
    /// `Tests/Fixtures`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// `Tests/Fixtures/cases`.
    static let cases = root.appendingPathComponent("cases")

    /// Reads a file without blocking the cooperative pool.
    static func read(_ url: URL) async throws -> Data {
        try await WorkerThreadPool.io.run { try Data(contentsOf: url) }
    }

    /// Reads `Tests/Fixtures/cases/<relative>` (for example `inputs/orient-6.jpg`).
    static func caseFile(_ relative: String) async throws -> Data {
        try await read(cases.appendingPathComponent(relative))
    }

    /// Every manifest entry (synchronous: used to build test arguments).
    static let manifest: [ManifestEntry] = {
        let url = cases.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        struct Manifest: Decodable { var entries: [ManifestEntry] }
        return (try? JSONDecoder().decode(Manifest.self, from: data).entries) ?? []
    }()
}

/// One record of `manifest.json` (the fields these tests use; see its `conventions`).
struct ManifestEntry: Decodable, Sendable, CustomTestStringConvertible {
    struct PixelSample: Decodable, Sendable {
        var x: Int
        var y: Int
        var rgb: [Int]?
        var alpha: Int?
        var tol: Int
    }

    struct Thumbnail: Decodable, Sendable {
        var box: [Int]
        var width: Int
        var height: Int
    }

    enum Decodes: Decodable, Sendable, Equatable {
        case yes, no, partial

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = flag ? .yes : .no
            } else {
                self = .partial
            }
        }
    }

    struct Expected: Decodable, Sendable {
        var decodes: Decodes
        var width: Int?
        var height: Int?
        var pixels: [PixelSample]?
        var thumbnail: Thumbnail?
        /// Several thumbnail sizes asked of one source (case C27).
        var requests: [Thumbnail]?
        var errorKind: String?
        var formatDetected: String?
        var frames: Int?
        var hasAlpha: Bool?

        enum CodingKeys: String, CodingKey {
            case decodes, width, height, pixels, thumbnail, requests, frames
            case errorKind = "error_kind"
            case formatDetected = "format_detected"
            case hasAlpha = "has_alpha"
        }
    }

    struct HTTP: Decodable, Sendable {}

    var id: String
    var file: String
    var expected: Expected
    var http: HTTP?

    var testDescription: String { id }
}
