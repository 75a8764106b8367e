import Foundation
import Testing

@testable import Pinhole

/// The per-host network limit counts one origin once, however its URL spells the host.
struct OriginGroupTests {
    @Test func spellingsOfOneHostAreOneGroup() {
        // Given spellings that reach the same origin (case, a fully-qualified trailing dot, the default port
        // written out, userinfo, IPv6 and IPv4 written in other forms)
        let spellings: [(String, String)] = [
            ("http://example.com/a", "http://EXAMPLE.com./b"),
            ("http://example.com/a", "http://example.com:80/b"),
            ("http://example.com/a", "http://user@example.com/b"),
            ("http://[::1]/a", "http://[0:0::1]/b"),
            ("http://127.0.0.1/a", "http://127.1/b"),
            ("https://example.com/a", "https://example.com..:443/b"),
        ]
        for (first, second) in spellings {
            // When their groups are taken
            let groups = [first, second].map { ImagePipeline.origin(of: URL(string: $0)!) }
            // Then they are the same
            #expect(groups[0] != nil)
            #expect(groups[0] == groups[1], "\(first) and \(second)")
        }
        // And other hosts or ports stay apart
        #expect(
            ImagePipeline.origin(of: URL(string: "http://example.com/")!)
                != ImagePipeline.origin(of: URL(string: "http://example.com:8080/")!))
        #expect(
            ImagePipeline.origin(of: URL(string: "http://a.example.com/")!)
                != ImagePipeline.origin(of: URL(string: "http://example.com/")!))
    }
}
