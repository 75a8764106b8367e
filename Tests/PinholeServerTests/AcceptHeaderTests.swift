import PinholeServer
import Testing

/// `Accept` parsed with q-values and the format chosen from it.
struct AcceptHeaderTests {
    static let preference: [OutputFormat] = [.webp, .avif, .jpeg, .png]

    @Test(arguments: [
        ("image/avif,image/webp,image/apng,*/*;q=0.8", OutputFormat.webp),
        ("image/avif,image/webp;q=0.9,*/*;q=0.8", .avif),
        ("image/webp;q=0,image/avif;q=0.5,*/*;q=0.8", .jpeg),
        ("image/webp;q=0.1", .webp),
        ("IMAGE/WEBP", .webp),
        ("*/*", .jpeg),
        ("image/*", .jpeg),
        ("text/html", .jpeg),
        ("", .jpeg),
        ("image/webp;q=abc,image/jpeg", .jpeg),
        ("image/webp ; q=0.7 , image/avif ; q=0.6", .webp),
    ])
    func anOpaqueImageGetsTheBestNamedFormat(accept: String, expected: OutputFormat) {
        #expect(AcceptHeader(accept).negotiate(preference: Self.preference, hasAlpha: false) == expected)
    }

    @Test(arguments: [
        ("image/jpeg", OutputFormat.png),
        ("image/webp,image/jpeg", .webp),
        ("*/*", .png),
        ("image/avif", .avif),
    ])
    func anImageWithAlphaNeverGetsJPEG(accept: String, expected: OutputFormat) {
        #expect(AcceptHeader(accept).negotiate(preference: Self.preference, hasAlpha: true) == expected)
    }

    @Test func noHeaderMeansJPEGOrPNG() {
        #expect(AcceptHeader(nil).negotiate(preference: Self.preference, hasAlpha: false) == .jpeg)
        #expect(AcceptHeader(nil).negotiate(preference: Self.preference, hasAlpha: true) == .png)
    }

    @Test func theMostSpecificRangeGivesTheQuality() {
        let header = AcceptHeader("*/*;q=0.9, image/*;q=0.5, image/webp;q=0.2")
        #expect(header.quality(of: .webp) == 0.2)
        #expect(header.quality(of: .avif) == 0.5)
        #expect(AcceptHeader("*/*;q=0.9").quality(of: .png) == 0.9)
        #expect(AcceptHeader("text/plain").quality(of: .png) == nil)
    }

    @Test(
        arguments: [
            ("image/avif,image/webp,*/*;q=0.8", OutputFormat.webp),
            ("*/*", .gif),
            ("image/png", .gif),
            (nil, .gif),
            ("image/webp;q=0, image/gif", .gif),
            ("image/webp;q=0, image/gif;q=0, */*", nil),
            ("image/*;q=0", nil),
        ] as [(String?, OutputFormat?)])
    func anAnimationIsWebPWhenNamedElseGIFUnlessRefused(accept: String?, expected: OutputFormat?) {
        #expect(AcceptHeader(accept).animationFormat == expected)
    }
}
