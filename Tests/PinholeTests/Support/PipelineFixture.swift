import Foundation
import Pinhole
import PinholeTestFakes

/// A pipeline over a ``GatedDataLoader`` and a ``FakeDecoder``: coordination without I/O.
struct PipelineFixture {
    let loader = GatedDataLoader()
    let decoder = FakeDecoder()
    let pipeline: ImagePipeline

    init(networkLimit: Int = 6, processingLimit: Int = 2, memoryCache: Bool = true) {
        var configuration = ImagePipeline.Configuration(decoder: decoder, dataLoader: loader)
        configuration.networkConcurrencyLimit = networkLimit
        configuration.processingConcurrencyLimit = processingLimit
        if !memoryCache { configuration.memoryCache = nil }
        pipeline = ImagePipeline(configuration: configuration)
    }

    static func url(_ name: String) -> URL {
        URL(string: "https://images.example/\(name)")!
    }
}
