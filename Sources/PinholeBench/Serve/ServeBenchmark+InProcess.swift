import Foundation
import PinholeShared

extension ServeBenchmark {
    /// `pinhole thumbnail CORPUS --size 512 --format F --jobs CORES --untrusted --allowed-root CORPUS --out DIR`,
    /// ``Configuration/inProcessRuns`` times, each a fresh process: images per second of the whole process and its
    /// CPU per image (the children's CPU time across the run; no other child ends meanwhile). `--untrusted` because
    /// the server decodes every source under the untrusted-source policy too (its format's own loader only), so the
    /// ratio prices what the issue asks about: HTTP, signing and negotiation.
    ///
    /// - Throws: ``BenchServeError`` when the command fails.
    func inProcessReference(_ format: ServeFormat, corpus: ServeCorpus, work: URL) async throws -> InProcessReference {
        var rates = Samples()
        var cpuPerImage: [Double] = []
        let images = Double(corpus.files.count)
        for run in 0..<max(1, configuration.inProcessRuns) {
            let out = work.appendingPathComponent("thumbnails-\(format.rawValue)-\(run)").path
            let cpuBefore = ProcessStats.childCPUSeconds()
            let result = try await ChildProcess.run(
                configuration.pinholeExecutable,
                [
                    "thumbnail", corpus.directory.path, "--size", String(Self.side), "--format", format.rawValue,
                    "--quality", String(Self.quality), "--jobs", String(configuration.cores), "--untrusted",
                    "--allowed-root", corpus.directory.path, "--out", out,
                ])
            let cpuSeconds = ProcessStats.childCPUSeconds() - cpuBefore
            guard result.status == 0 else {
                throw BenchServeError("pinhole thumbnail exited with status \(result.status)")
            }
            rates.append(images / result.seconds)
            cpuPerImage.append(cpuSeconds / images)
        }
        let median = rates.median
        // The CPU figure of the run whose rate is closest to the median.
        let closest = rates.values.indices.min { abs(rates.values[$0] - median) < abs(rates.values[$1] - median) } ?? 0
        return InProcessReference(
            format: format, jobs: configuration.cores, imagesPerSecond: rates, cpuSecondsPerImage: cpuPerImage[closest],
            secondsPerImage: median > 0 ? Double(configuration.cores) / median : 0)
    }
}
