import Foundation
import PinholeServer
import Testing

@testable import pinhole

/// `pinhole serve`'s admission flags reach the server's configuration.
struct ServeFlagsTests {
    static func configuration(_ arguments: [String]) throws -> ServerConfiguration {
        let parsed = try ArgumentReader(options: ServeCommand.options).read(["--allow-unsigned"] + arguments)
        return try ServeCommand.configuration(parsed, environment: [:])
    }

    @Test func activeLimitQueueLimitAndQueueTimeoutAreTheServersAdmissionLimits() throws {
        // Given the three admission flags
        let configuration = try Self.configuration([
            "--concurrency", "2", "--active-limit", "3", "--queue-limit", "7", "--queue-timeout", "0.25",
        ])

        // When the admission limits are read
        let limits = configuration.admissionLimits

        // Then they are the flags' values
        #expect(limits.activeLimit == 3)
        #expect(limits.queueLimit == 7)
        #expect(limits.queueTimeout == .milliseconds(250))
    }

    @Test func withoutAnActiveLimitThePlacesAreTwiceTheConcurrency() throws {
        // Given only --concurrency 3
        let configuration = try Self.configuration(["--concurrency", "3"])

        // When / Then the places are 6
        #expect(configuration.admissionLimits.activeLimit == 6)
    }

    @Test(arguments: ["0", "-1", "many"])
    func anActiveLimitBelowOneOrNotANumberIsAUsageError(value: String) {
        // Given / When / Then an --active-limit that is not 1 or more is refused before serving
        #expect(throws: UsageError.self) { try Self.configuration(["--active-limit", value]) }
    }

    @Test(arguments: ["0x10", "1e2", "inf", "nan", "-1", ".", "1.2.3", " 2", "601"])
    func aQueueTimeoutThatIsNotPlainSecondsIsAUsageError(value: String) {
        // Given / When / Then a --queue-timeout Swift's Double(_:) would read (hex, exponents, inf) is refused too
        #expect(throws: UsageError.self) { try Self.configuration(["--queue-timeout", value]) }
    }

    @Test(arguments: [("2", 2.0), ("0.5", 0.5), (".5", 0.5), ("10.", 10.0), ("0", 0.0)])
    func plainDecimalsAreSeconds(value: String, seconds: Double) {
        // Given / When / Then plain decimals are read as they are written
        #expect(ParsedArguments.plainDecimal(value) == seconds)
    }
}
