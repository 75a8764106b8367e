import Foundation
import Pinhole
import PinholeServer
import Testing

/// imgproxy's processing URL format, parsed: sources, extensions, every supported option, and refusals that name
/// what is wrong.
struct ProcessingURLTests {
    static func base64(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func aPlainSourceIsPercentDecodedAndItsExtensionSplitAtTheLastAt() throws {
        // Given a plain source with an encoded query and an @webp extension
        let url = try ProcessingURL.parse(
            "/sig/rs:fit:300:200/plain/http%3A%2F%2Fcdn.example.com%2Fa%40b.jpg%3Fv%3D2@webp")
        // Then the source is decoded whole and the extension sets the format
        #expect(url.signature == "sig")
        #expect(url.source.absoluteString == "http://cdn.example.com/a@b.jpg?v=2")
        #expect(url.options.format == .webp)
        #expect(url.signedPath == "/rs:fit:300:200/plain/http%3A%2F%2Fcdn.example.com%2Fa%40b.jpg%3Fv%3D2@webp")
    }

    @Test func aBase64SourceMayBeSplitBySlashesAndEndInAnExtension() throws {
        // Given imgproxy's documented example path (a base64 source split in four, .png)
        let url = try ProcessingURL.parse(
            "/insecure/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        // Then the source is joined before decoding
        #expect(url.source.absoluteString == "http://example.com/images/curiosity.jpg")
        #expect(url.options.format == .png)
        #expect(url.options.resizingType == .fill)
        #expect(url.options.gravity == .attention)
        #expect(
            url.options.thumbnail
                == ThumbnailOptions(size: PixelSize(width: 300, height: 400), contentMode: .fill(crop: .attention)))
    }

    @Test func aBase64SourceWithoutExtensionLeavesTheFormatToNegotiation() throws {
        let url = try ProcessingURL.parse("/x/w:64/\(Self.base64("https://example.com/p.jpg"))")
        #expect(url.source.absoluteString == "https://example.com/p.jpg")
        #expect(url.options.format == nil)
    }

    @Test func animationIsAskedForByEveryOneOfItsSpellings() throws {
        // Given the animation option written four ways, the opposite two ways, and no option
        let asking = ["an:1", "animated:true", "da:0", "disable_animation:f"]
        let refusing = ["an:0", "da:1"]
        // Then the first ask for animation, and the others (as no option) for the first frame
        for option in asking {
            #expect(try ProcessingURL.parse(Substring("/s/\(option)/plain/http://e.com/a.gif")).options.animated)
        }
        for option in refusing + ["w:10"] {
            #expect(try !ProcessingURL.parse(Substring("/s/\(option)/plain/http://e.com/a.gif")).options.animated)
        }
        // And gif is a format a URL may name
        #expect(try ProcessingURL.parse("/s/an:1/plain/http://e.com/a.gif@gif").options.format == .gif)
    }

    @Test func everyResizeSpellingSetsTheSameBox() throws {
        // Given the same 320×240 fill with enlarge written four ways
        let spellings = [
            "/s/rs:fill:320:240:1/plain/http://e.com/a.jpg", "/s/resize:fill:320:240:t/plain/http://e.com/a.jpg",
            "/s/rt:fill/s:320:240:true/plain/http://e.com/a.jpg",
            "/s/rt:fill/w:320/h:240/el:1/plain/http://e.com/a.jpg",
        ]
        // Then each gives the same thumbnail options
        let expected = ThumbnailOptions(
            size: PixelSize(width: 320, height: 240), contentMode: .fill(crop: .centre), allowsUpscaling: true)
        for spelling in spellings {
            #expect(try ProcessingURL.parse(Substring(spelling)).options.thumbnail == expected, "\(spelling)")
        }
    }

    @Test func dprMultipliesBothSidesAndOneSideOfZeroFollowsTheAspectRatio() throws {
        let scaled = try ProcessingURL.parse("/s/rs:fit:100:50/dpr:2/plain/http://e.com/a.jpg").options.thumbnail
        #expect(scaled?.size == PixelSize(width: 200, height: 100))
        let widthOnly = try #require(
            try ProcessingURL.parse("/s/rs:fill:120:0/plain/http://e.com/a.jpg").options.thumbnail)
        #expect(widthOnly.contentMode == .aspectFit)
        #expect(widthOnly.fittedSize(width: 1200, height: 800) == PixelSize(width: 120, height: 80))
        #expect(try ProcessingURL.parse("/s/q:70/plain/http://e.com/a.jpg").options.thumbnail == nil)
    }

    @Test func fillDownNeverEnlarges() throws {
        let options = try ProcessingURL.parse("/s/rs:fill-down:500:500:1/plain/http://e.com/a.jpg").options.thumbnail
        #expect(options?.allowsUpscaling == false)
        #expect(options?.fittedSize(width: 200, height: 100) == PixelSize(width: 100, height: 100))
    }

    @Test(arguments: [
        ("ce", ThumbnailOptions.Crop.centre), ("sm", .attention), ("no", .north), ("so", .south), ("ea", .east),
        ("we", .west), ("noea", .northEast), ("nowe", .northWest), ("soea", .southEast), ("sowe", .southWest),
    ])
    func gravityNamesMapToCrops(name: String, crop: ThumbnailOptions.Crop) throws {
        #expect(
            try ProcessingURL.parse(Substring("/s/rs:fill:10:10/g:\(name)/plain/http://e.com/a.jpg")).options.gravity
                == crop)
    }

    @Test(arguments: [
        ("/s/zoom:2/plain/http://e.com/a.jpg", "unknown_option", "zoom"),
        ("/s/rt:force/plain/http://e.com/a.jpg", "unsupported_option", "force"),
        ("/s/rs:fit:10:10:0:1/plain/http://e.com/a.jpg", "unsupported_option", "extend"),
        ("/s/g:fp:0.5:0.5/plain/http://e.com/a.jpg", "unsupported_option", "offsets"),
        ("/s/g:ce:10:0/plain/http://e.com/a.jpg", "unsupported_option", "offsets"),
        ("/s/w:abc/plain/http://e.com/a.jpg", "invalid_option", "abc"),
        ("/s/an:2/plain/http://e.com/a.gif", "invalid_option", "2"),
        ("/s/da:1:0/plain/http://e.com/a.gif", "invalid_option", "da"),
        ("/s/w:-5/plain/http://e.com/a.jpg", "invalid_option", "-5"),
        ("/s/w:99999/plain/http://e.com/a.jpg", "invalid_option", "99999"),
        ("/s/w:2000/dpr:3/plain/http://e.com/a.jpg", "invalid_option", "4096"),
        ("/s/w:5000/plain/http://e.com/a.jpg", "invalid_option", "4096"),
        ("/s/q:101/plain/http://e.com/a.jpg", "invalid_option", "101"),
        ("/s/dpr:0/plain/http://e.com/a.jpg", "invalid_option", "dpr"),
        ("/s/el:maybe/plain/http://e.com/a.jpg", "invalid_option", "maybe"),
        ("/s/f:bmp/plain/http://e.com/a.jpg", "unsupported_format", "bmp"),
        ("/s/w:10/plain/http://e.com/a.jpg@bmp", "unsupported_format", "bmp"),
        ("/s/w:10/plain/file:///etc/passwd", "invalid_url", "http"),
        ("/s/w:10/plain/javascript:alert(1)", "invalid_url", "http"),
        ("/s/w:10/plain/http%3A%2F%2Fe.com%2Fa%20b.jpg", "invalid_url", "spaces"),
        ("/s/w:10/plain/http://e.com/a%0d%0aX:%20y.jpg", "invalid_url", "control"),
        ("/s/w:10/!!!notbase64", "invalid_url", "base64"),
        ("/s/w:10/plain/", "invalid_url", "source"),
        ("/s", "invalid_url", "signature"),
        ("no-slash", "invalid_url", "/"),
    ])
    func malformedURLsAreRefusedWithACodeThatNamesTheProblem(path: String, code: String, mention: String) {
        // When a malformed path is parsed
        #expect {
            _ = try ProcessingURL.parse(Substring(path))
        } throws: { error in
            // Then the error's code is specific and its message names the culprit
            guard let error = error as? ProcessingURLError else { return false }
            return error.code == code && error.message.contains(mention)
        }
    }

    @Test func aSourceLongerThanTheLimitIsRefused() {
        let long = "http://e.com/" + String(repeating: "a", count: ProcessingURL.maxSourceLength)
        #expect(throws: ProcessingURLError.self) { _ = try ProcessingURL.parse(Substring("/s/w:1/plain/\(long)")) }
    }
}
