import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole
@testable import PinholeCurl

/// What one transfer tells libcurl, from the request and the loader's configuration.
@Suite(.timeLimit(scaledMinutes: 1))
struct HTTPTransferOptionsTests {
    let url = URL(string: "https://images.example/a.jpg")!

    @Test func requestHeadersOverrideConfiguredOnesByNameInAnyCaseAndValidatorsComeLast() throws {
        var configuration = HTTPDataLoader.Configuration()
        configuration.additionalHeaders = ["User-Agent": "Pinhole", "Accept": "image/*"]
        var request = DataRequest(url: url, ifNoneMatch: "W/\"1\"", ifModifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT")
        request.headers = ["user-agent": "Custom", "X-Empty": ""]
        let options = try HTTPTransferOptions(request: request, configuration: configuration)
        #expect(
            options.headerLines == [
                "Accept: image/*", "X-Empty;", "user-agent: Custom", "If-None-Match: W/\"1\"",
                "If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT",
            ])
    }

    @Test(arguments: ["a\r\nHost: evil", "a\nb", "a\rb", "a\u{0}b"])
    func aValueWithALineBreakIsRefused(_ value: String) {
        var request = DataRequest(url: url)
        request.headers = ["X-Bad": value]
        let error = #expect(throws: PinholeError.self) {
            try HTTPTransferOptions(request: request, configuration: HTTPDataLoader.Configuration())
        }
        #expect(error?.code == .invalidRequest)
    }

    @Test func theRequestTimeoutReplacesTheDeadlineAndDurationsBecomeLibcurlUnits() throws {
        var configuration = HTTPDataLoader.Configuration()
        configuration.deadline = .seconds(60)
        configuration.stallTimeout = .milliseconds(1500)
        configuration.connectTimeout = .microseconds(1)
        var request = DataRequest(url: url)
        #expect(try HTTPTransferOptions(request: request, configuration: configuration).deadlineMilliseconds == 60_000)
        request.timeout = .milliseconds(250)
        let options = try HTTPTransferOptions(request: request, configuration: configuration)
        #expect(options.deadlineMilliseconds == 250)
        #expect(options.stallSeconds == 2)  // whole seconds, rounded up
        #expect(options.connectTimeoutMilliseconds == 1)  // at least 1 ms: 0 would mean "none" to libcurl
    }

    @Test(arguments: [
        (Duration.zero, 1), (.milliseconds(1), 1), (.seconds(1), 1), (.milliseconds(1001), 2),
        (.seconds(-5), 1),
    ])
    func theStallTimeoutIsWholeSecondsAtLeastOne(_ duration: Duration, _ seconds: Int) {
        #expect(HTTPTransferOptions.wholeSeconds(roundingUp: duration) == seconds)
    }

    @Test(arguments: [
        (Duration.zero, 1000), (.microseconds(800_300), 200), (.microseconds(999_999), 1), (.seconds(1), 1),
        (.seconds(5), 1), (.seconds(-1), 1000), (.seconds(Int64.max), 1),
    ])
    func aRedirectHopGetsWhatIsLeftOfTheDeadlineNeverLess(_ elapsed: Duration, _ remaining: Int) {
        // Given a 1000 ms deadline and the time the chain has taken so far
        // When the next hop's timeout is set, Then it is what is left, rounded so the chain never ends early
        // (800.3 ms taken leaves 200 ms: rounding the 800.3 up to 801 left 199, and the chain ended at 999.3 ms)
        #expect(HTTPTransferOptions.remainingMilliseconds(ofDeadline: 1000, after: elapsed) == remaining)
    }
}
