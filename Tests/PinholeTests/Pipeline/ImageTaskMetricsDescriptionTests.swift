import Pinhole
import Testing

/// The one-line summary of an ``ImageTaskMetrics`` (the gallery's full view shows it).
@Suite struct ImageTaskMetricsDescriptionTests {
    @Test func aSummaryNamesTheSourceTheTotalAndTheThreeLongestStagesInMilliseconds() {
        // Given a joiner's record of a download with four stages
        let metrics = ImageTaskMetrics(
            source: .network, joinedExistingJob: true, total: .milliseconds(182),
            stages: [
                .firstByte: .milliseconds(120), .decode: .milliseconds(40), .download: .microseconds(3_250),
                .memoryCacheLookup: .microseconds(10),
            ])
        // Then its description lists the three longest, longest first
        #expect(metrics.description == "network (joined) 182 ms: first_byte 120, decode 40, download 3.25")
        // And a failure without stages says so
        #expect(ImageTaskMetrics(source: nil, total: .microseconds(40)).description == "failed 0.04 ms")
    }
}
