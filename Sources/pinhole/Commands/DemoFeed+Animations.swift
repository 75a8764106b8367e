import Foundation

extension DemoFeed {
    /// Every ``animatedItemSpacing``th item, from the third (3, 13, 23, …), is an animation when the animations
    /// directory has any, cycling over them; the others are photos.
    static let animatedItemSpacing = 10

    /// The demo's animated GIF/WebP items: `animated` next to the corpus (`corpus/../animated`, made from its
    /// photos by scripts/make-animations.sh, which scripts/make-corpus.sh runs).
    static func animationsDirectory(of corpus: URL) -> URL {
        corpus.deletingLastPathComponent().appendingPathComponent("animated")
    }

    /// The `.gif` and `.webp` files of `directory`, sorted; none when it does not exist. Blocking.
    static func listAnimations(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { ["gif", "webp"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
    }

    /// The animation item `index` (0-based) shows, or `nil` for a photo item.
    static func animation(ofItem index: Int, in animations: [String]) -> String? {
        guard !animations.isEmpty, index % animatedItemSpacing == 2 else { return nil }
        return animations[(index / animatedItemSpacing) % animations.count]
    }

    /// `pan-1.gif` → `Pan 1 (animated GIF)`.
    static func animationTitle(of file: String) -> String {
        let stem = (file as NSString).deletingPathExtension.replacingOccurrences(of: "-", with: " ")
        let type = (file as NSString).pathExtension.lowercased() == "gif" ? "GIF" : "WebP"
        return "\(stem.prefix(1).uppercased() + stem.dropFirst()) (animated \(type))"
    }

    /// The content type of an animation file.
    static func animationContentType(of file: String) -> String {
        (file as NSString).pathExtension.lowercased() == "gif" ? "image/gif" : "image/webp"
    }
}
