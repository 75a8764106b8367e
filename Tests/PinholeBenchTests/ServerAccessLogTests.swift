import Foundation
import PinholeTestSupport
import Testing

@testable import PinholeBench

/// The server's own latencies of the overload bench, read from `pinhole serve`'s access log.
@Suite(.timeLimit(scaledMinutes: 1))
struct ServerAccessLogTests {
    @Test func onlyMarkedTargetsCountAndEachStatusHasItsOwnPercentiles() {
        // Given an access log with two marked 200s, three marked 503s, a marked 404, an unmarked 200 and noise
        let log = """
            {"method":"GET","target":"/s/rs:fit/plain/a%3Fo%3Doverload-1@jpg","ms":300.5,"status":200}
            {"method":"GET","target":"/s/rs:fit/plain/a%3Fo%3Doverload-2@jpg","ms":100,"status":200}
            {"method":"GET","target":"/s/plain/a%3Fo%3Doverload-3@jpg","ms":0.4,"status":503}
            {"method":"GET","target":"/s/plain/a%3Fo%3Doverload-4@jpg","ms":0.2,"status":503}
            {"method":"GET","target":"/s/plain/a%3Fo%3Doverload-5@jpg","ms":7.5,"status":503}
            {"method":"GET","target":"/s/plain/a%3Fo%3Doverload-6@jpg","ms":2,"status":404}
            {"method":"GET","target":"/s/plain/a%3Fo%3Dunloaded-1@jpg","ms":50,"status":200}
            not json %3Fo%3Doverload-7
            """
        // When the marked lines are read
        let classes = ServerAccessLog.latencies(log, targetContaining: "%3Fo%3Doverload-")
        // Then each class has its count and nearest-rank percentiles, the unmarked line and the noise left out
        #expect(
            classes["200"]
                == OpenLoopRun.Latencies(count: 2, p50Milliseconds: 100, p99Milliseconds: 300.5, maxMilliseconds: 300.5)
        )
        #expect(
            classes["503"]
                == OpenLoopRun.Latencies(count: 3, p50Milliseconds: 0.4, p99Milliseconds: 7.5, maxMilliseconds: 7.5))
        #expect(classes["other"]?.count == 1 && classes["other"]?.maxMilliseconds == 2)
    }
}
