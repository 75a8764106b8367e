import Foundation

/// One record of `Tests/Fixtures/cases-s3/manifest.json` (the decoder's cases of the third case set, copied from
/// the shared set): the fields these tests use.
struct ThirdCaseSetEntry: Decodable, Sendable, CustomStringConvertible {
    struct Expected: Decodable, Sendable {
        /// `image`, `error` or `image-or-error`.
        var outcome: String
        /// Thumbnail size (`[width, height]`) by box side, e.g. `"360": [160, 120]`.
        var sizes: [String: [Int]]?
        /// Colour of each quadrant's centre: `tl`, `tr`, `bl`, `br` → `[r, g, b]`.
        var quadrants: [String: [Int]]?
        /// The ``PinholeError/Code/kind``s a failure may have.
        var errorKinds: [String]?
        /// What a failure's message must match (case-insensitive).
        var messageRegex: String?

        enum CodingKeys: String, CodingKey {
            case outcome, sizes, quadrants
            case errorKinds = "error_kinds"
            case messageRegex = "message_regex"
        }
    }

    var id: String
    var file: String
    var expected: Expected

    var description: String { id }

    /// Every entry, by id (synchronous: used to build test arguments).
    static let all: [String: ThirdCaseSetEntry] = {
        let url = Fixtures.root.appendingPathComponent("cases-s3/manifest.json")
        guard let data = try? Data(contentsOf: url),
            let entries = try? JSONDecoder().decode([ThirdCaseSetEntry].self, from: data)
        else { return [:] }
        return Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// Whether `message` matches ``Expected/messageRegex`` (case-insensitive); `false` when there is none.
    func messageMatches(_ message: String) -> Bool {
        guard let pattern = expected.messageRegex else { return false }
        return message.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil
    }
}
