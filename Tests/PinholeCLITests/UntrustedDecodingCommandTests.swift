import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// `pinhole thumbnail --untrusted` confines the decoder too: a BMP (read by ImageMagick in libvips) inside the
/// allowed root is refused with unsupported_format, while a JPEG next to it is thumbnailed; without `--untrusted`
/// both are.
@Suite(.timeLimit(scaledMinutes: 1))
struct UntrustedDecodingCommandTests {
    @Test func untrustedInputsAreDecodedOnlyAsTheAllowedFormats() async throws {
        // Given root/a.jpg and root/b.bmp
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.copyFixture("orient-1.jpg", to: "root/a.jpg")
        try directory.copyFixture("bmp24.bmp", to: "root/b.bmp")

        // When both are thumbnailed as untrusted, and as trusted
        let untrusted = try await PinholeBinary.run(
            ["thumbnail", "root/a.jpg", "root/b.bmp", "--untrusted", "--allowed-root", "root", "--out", "u", "--json"],
            in: directory.path)
        let trusted = try await PinholeBinary.run(
            ["thumbnail", "root/a.jpg", "root/b.bmp", "--out", "t", "--json"], in: directory.path)

        // Then the untrusted run refuses the BMP by its format, and the trusted run reads both
        let report = try JSONReport(untrusted.stdout)
        #expect(report.succeeded == 1)
        #expect(report.errors.map(\.input) == ["root/b.bmp"])
        #expect(report.errors.first?.kind == "unsupported_format")
        #expect(report.errors.first?.message.contains("not decoded from untrusted sources") == true)
        #expect(untrusted.status == 1)
        #expect(try JSONReport(trusted.stdout).succeeded == 2)
        #expect(trusted.status == 0)
    }
}
