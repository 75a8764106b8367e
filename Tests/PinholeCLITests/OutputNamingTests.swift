import PinholeTestSupport
import Testing

@testable import pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct OutputNamingTests {
    let naming = OutputNaming(size: 360, fileExtension: "jpg")

    @Test func flattensTheRelativePathAndAppendsSizeAndExtension() {
        #expect(
            naming.names(for: ["a.jpg", "sub/b.png", "x/y/c.d.webp", "noext", ".hidden"])
                == ["a.360.jpg", "sub__b.360.jpg", "x__y__c.d.360.jpg", "noext.360.jpg", ".hidden.360.jpg"])
    }

    @Test func numbersCollisionsInInputOrder() {
        // Given two files with the same name from different roots, and one that differs only in extension
        let names = naming.names(for: ["x.jpg", "x.jpg", "x.png", "X.JPG"])

        // Then the first keeps the plain name and the others are numbered
        #expect(names == ["x.360.jpg", "x-2.360.jpg", "x-3.360.jpg", "X-4.360.jpg"])
    }

    @Test func neverTakesALaterInputsPlainName() {
        // Given a collision whose numbered name is another input's plain name
        let names = naming.names(for: ["x.jpg", "x.png", "x-2.jpg"])

        // Then that input keeps its plain name and the duplicate skips it
        #expect(names == ["x.360.jpg", "x-3.360.jpg", "x-2.360.jpg"])
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
    }

    @Test func givesTheSameNamesOnEveryRun() {
        let paths = (0..<50).map { "d\($0 % 7)/img\($0 % 5).jpg" } + (0..<20).map { "img\($0 % 3).png" }
        #expect(naming.names(for: paths) == naming.names(for: paths))
        #expect(Set(naming.names(for: paths)).count == paths.count)
    }
}
