import Foundation
import PinholeBench
import PinholeTestSupport
import Testing

/// The figures `pinhole bench thumbnail --compare` reports: speed-ups, scaling, the JSON shape and the chart.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailComparisonResultTests {
    /// Pinhole at 10 and 19 images/s (all files) and 12 and 23 (JPEGs); tools at fixed rates.
    static let result: ThumbnailComparisonResult = {
        typealias Row = ThumbnailComparisonResult.Row
        func row(_ tool: ThumbnailComparisonResult.Tool, _ jobs: Int, _ rate: Double) -> Row {
            Row(
                tool: tool, jobs: jobs, imagesPerSecond: Samples([rate * 0.9, rate, rate * 1.1]),
                cpuSecondsPerImage: 1 / rate, peakRSSBytes: 100_000_000)
        }
        return ThumbnailComparisonResult(
            corpus: "/corpus", images: 56, jpegs: 46, size: 360, quality: 80, runs: 3, warmups: 1,
            activeProcessors: 2,
            rows: [
                row(.pinhole, 1, 10), row(.pinhole, 2, 19), row(.pinholeJPEG, 1, 12), row(.pinholeJPEG, 2, 23),
                row(.vipsthumbnail, 1, 5), row(.vipsthumbnail, 2, 9.5), row(.pyvips, 1, 12.5),
                row(.turbojpegFloor, 1, 24), row(.turbojpegFloor, 2, 46),
            ])
    }()

    @Test func speedupIsPinholesRateOverTheToolsAtTheSameJobs() throws {
        // Given the figures above, When speed-ups are asked, Then they are ratios of median images/s
        #expect(try #require(Self.result.pinholeSpeedup(.vipsthumbnail, jobs: 1)) == 2.0)
        #expect(try #require(Self.result.pinholeSpeedup(.vipsthumbnail, jobs: 2)) == 2.0)
        #expect(try #require(Self.result.pinholeSpeedup(.pyvips, jobs: 1)) == 0.8)
        // JPEG-only tools are compared with Pinhole over the JPEGs
        #expect(try #require(Self.result.pinholeSpeedup(.turbojpegFloor, jobs: 1)) == 0.5)
        #expect(Self.result.pinholeSpeedup(.pyvips, jobs: 2) == nil)
        #expect(try #require(Self.result.scaling(.pinhole)) == 1.9)
        // CPU per image: the tool's over Pinhole's (0.2 s over 0.1 s)
        #expect(try #require(Self.result.pinholeCPUAdvantage(.vipsthumbnail, jobs: 1)) == 2.0)
    }

    @Test func encodesPinholeAndNamedToolsAsJSON() throws {
        // When encoded
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.result)) as? [String: Any]

        // Then there is a pinhole object and a tools array with the field names
        let pinhole = try #require(json?["pinhole"] as? [String: Any])
        #expect(pinhole["scaling"] as? Double == 1.9)
        let tools = try #require(json?["tools"] as? [[String: Any]])
        #expect(tools.count == 5)
        let first = try #require(tools.first)
        #expect(first["name"] as? String == "vipsthumbnail")
        #expect(first["imagesPerSecond"] as? Double == 5)
        #expect(first["cpuSecondsPerImage"] as? Double == 0.2)
        #expect(first["peakRSSBytes"] as? Int == 100_000_000)
        #expect(first["pinholeSpeedup"] as? Double == 2)
        #expect(Set(tools.compactMap { $0["name"] as? String }) == ["vipsthumbnail", "pyvips", "turbojpeg-floor"])
    }

    @Test func drawsThePNGChart() async throws {
        // When the chart is drawn
        let png = try await ThumbnailComparisonChart.png(Self.result)

        // Then it is a PNG
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 1000)
    }
}
