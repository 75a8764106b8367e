import Foundation
import PinholeTestSupport
import Testing

@testable import pinhole

/// How each INPUT argument is read: a path, an http(s) URL, or an input error (never dropped).
@Suite(.timeLimit(scaledMinutes: 1))
struct InputArgumentTests {
    @Test(arguments: [
        "http://exa mple.com/s05/plain.jpg", "https://", "http:///a.jpg", "http://[::1/x",
        "HTTP://a b/x.jpg", "http://a.example:99999/x.jpg", "ftp://a.example/b.jpg", "gopher://x/y",
        "file://", "",
    ])
    func anArgumentThatIsNeitherAPathNorAUsableURLIsInvalid(_ argument: String) {
        guard case .invalid(let reason) = InputArgument(argument) else {
            Issue.record("\(argument) was accepted as \(InputArgument(argument))")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test(arguments: [
        "http://a.example/x.jpg", "HTTPS://A.EXAMPLE/x.jpg", "http://a.example/with space.jpg",
        "http://127.0.0.1:8080/p?q=1", "https://例え.jp/画像.jpg",
    ])
    func httpURLsWithAHostAreRemote(_ argument: String) {
        guard case .remote(let url) = InputArgument(argument) else {
            Issue.record("\(argument) was read as \(InputArgument(argument))")
            return
        }
        #expect(url.host?.isEmpty == false)
    }

    @Test func pathsAndFileURLsArePaths() {
        #expect(InputArgument("photos/a.jpg") == .path("photos/a.jpg"))
        #expect(InputArgument("./ftp://odd") == .path("./ftp://odd"))
        #expect(InputArgument("a:b.jpg") == .path("a:b.jpg"))
        #expect(InputArgument("file:///tmp/a%20b.jpg") == .path("/tmp/a b.jpg"))
    }
}
