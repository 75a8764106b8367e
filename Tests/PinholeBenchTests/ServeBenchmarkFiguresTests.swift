import Foundation
import PinholeTestServer
import PinholeTestSupport
import Testing

@testable import PinholeBench

/// The figures of `pinhole bench serve`: wrk's and curl's output read into numbers, the server's counters, and
/// issue 26's targets evaluated from them.
@Suite(.timeLimit(scaledMinutes: 1))
struct ServeBenchmarkFiguresTests {
    static let wrkOutput = """
        Running 10s test @ http://127.0.0.1:8080/
          2 threads and 8 connections
          Thread Stats   Avg      Stdev     Max   +/- Stdev
            Latency   160.12ms   20.01ms 225.10ms   70.00%
        PINHOLE-WRK {"requests":484,"durationMicroseconds":10004000,"bytes":12000000,"connectErrors":0,\
        "readErrors":0,"writeErrors":0,"statusErrors":2,"timeouts":1,"meanMicroseconds":160120.5,\
        "maxMicroseconds":225100,"p50Microseconds":159500,"p90Microseconds":175000,"p95Microseconds":183000,\
        "p99Microseconds":225100,"wrapped":0}
        """

    @Test func wrkSummaryLineBecomesNumbers() throws {
        // Given wrk's output with the line the script's done function prints
        // When it is parsed
        let summary = try WrkSummary.parse(Self.wrkOutput)
        // Then the counts, errors and percentiles are the printed ones, and the rate is requests per second
        #expect(summary.requests == 484)
        #expect(summary.p50Microseconds == 159_500 && summary.p95Microseconds == 183_000)
        #expect(summary.p99Microseconds == 225_100 && summary.meanMicroseconds == 160_120.5)
        #expect(summary.errors == 3)
        #expect(abs(summary.requestsPerSecond - 484 / 10.004) < 1e-9)
    }

    @Test func wrkOutputWithoutTheSummaryLineIsAnError() {
        // Given wrk's output without the script's line (a script error) / When parsed / Then it throws
        #expect(throws: BenchServeError.self) { try WrkSummary.parse("Running 10s test\nRequests/sec: 40\n") }
    }

    @Test func curlRoundReadsStatusesAndTimes() {
        // Given curl's -w lines for five requests, one failed, and a stray line
        let output = "200 0.010\n200 0.030\n404 0.002\nnoise\n200 0.020\n200 0.040\n"
        // When parsed
        let round = CurlRound.parse(output, wallSeconds: 0.5)
        // Then the statuses are counted and the percentiles are nearest-rank over the sorted times
        #expect(round.requests == 5 && round.errors == 1 && round.statuses[200] == 4)
        #expect(round.percentile(0.5) == 0.020 && round.percentile(0.95) == 0.040)
        #expect(round.requestsPerSecond == 10)
    }

    @Test func prometheusSamplesLoseThePrefixCommentsAndBuckets() {
        // Given a /metrics text
        let text = """
            # HELP pinhole_decodes_total Source images decoded.
            # TYPE pinhole_decodes_total counter
            pinhole_decodes_total 10
            pinhole_cache_hits_total{tier="memory"} 490
            pinhole_http_request_duration_seconds_bucket{le="0.1"} 3
            pinhole_http_request_duration_seconds_count 500
            """
        // When read / Then samples are keyed by name and labels, without the prefix, buckets left out
        #expect(
            PrometheusText.samples(text) == [
                "decodes_total": 10, "cache_hits_total{tier=\"memory\"}": 490,
                "http_request_duration_seconds_count": 500,
            ])
    }

    @Test func targetsCompareInTheirDirectionAndAnUnmeasuredFigureMissesThem() {
        #expect(ServeTarget("a", measured: 0.9, .atLeast, 0.9).met)
        #expect(!ServeTarget("a", measured: 0.89, .atLeast, 0.9).met)
        #expect(ServeTarget("b", measured: 1.5, .atMost, 1.5).met)
        #expect(!ServeTarget("b", measured: 1.51, .atMost, 1.5).met)
        #expect(ServeTarget("c", measured: 10, .exactly, 10).met)
        #expect(!ServeTarget("c", measured: 11, .exactly, 10).met)
        #expect(!ServeTarget("d", measured: ServeTarget.ratio(1, 0), .atLeast, 0).met)
    }
}
