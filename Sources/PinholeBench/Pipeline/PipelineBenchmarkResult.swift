import Foundation

/// The figures of ``PipelineBenchmark``.
public struct PipelineBenchmarkResult: Sendable, Codable {
    /// `cachedImage(for:)` hit, nanoseconds per call.
    public var hitNanoseconds = Samples()
    /// `await image(for:)` answered from the memory cache, nanoseconds per call.
    public var asyncHitNanoseconds = Samples()
    /// Reference: a lock-guarded dictionary lookup of the same key, nanoseconds.
    public var dictionaryLookupNanoseconds = Samples()
    /// `await image(for:)` with an instant loader and decoder (no memory cache), microseconds per request.
    public var requestMicroseconds = Samples()
    /// The same 5,000 requests made all at once: wall time ÷ requests, microseconds (amortised cost).
    public var concurrentRequestMicroseconds = Samples()
    /// Reference: the same loader and decoder called directly, microseconds per request.
    public var directMicroseconds = Samples()
    /// Identical concurrent requests made, and loads they caused.
    public var identicalRequests = 0
    public var identicalLoads = 0
    public var identicalSeconds = 0.0
    /// Threads (excluding the in-process server's) before and at the peak of the waiting run.
    public var baselineThreads = 0
    public var peakThreads = 0
    public var waitingSeconds = 0.0
    /// The client's CPU time during the waiting run (the in-process server's threads not counted), seconds.
    public var waitingCPUSeconds = 0.0
    /// Requests of the waiting run.
    public var waitingRequests = 0
    public var cores = 0

    /// The pipeline's own cost per request: pipeline minus direct, microseconds (medians).
    public var overheadMicroseconds: Double { requestMicroseconds.median - directMicroseconds.median }

    /// A table for people.
    public var text: String {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        return """
            Pipeline benchmark (median of \(hitNanoseconds.values.count) rounds; spread in brackets)
            memory-cache hit, cachedImage(for:)     \(f(hitNanoseconds.median)) ns  \
            [±\(f(hitNanoseconds.relativeSpread * 50))%]   target ≤ 1000 ns
              reference: locked dictionary lookup   \(f(dictionaryLookupNanoseconds.median)) ns  (ratio \
            \(f(hitNanoseconds.median / max(dictionaryLookupNanoseconds.median, 0.001), 2))×)
            memory-cache hit, await image(for:)     \(f(asyncHitNanoseconds.median)) ns
            request through the pipeline            \(f(requestMicroseconds.median, 2)) µs  (instant loader + decoder)
              reference: loader + decoder directly  \(f(directMicroseconds.median, 2)) µs
              pipeline overhead per request         \(f(overheadMicroseconds, 2)) µs   (one at a time: latency)
            5,000 requests at once, per request     \(f(concurrentRequestMicroseconds.median, 2)) µs   target ≤ 20 µs \
            (amortised)
            \(identicalRequests) identical concurrent requests     \(identicalLoads) load(s) of 200 ms in \
            \(f(identicalSeconds * 1000)) ms   target 1 load
            threads, 1,000 requests on a 250 ms server  baseline \(baselineThreads), peak \(peakThreads) \
            (+\(peakThreads - baselineThreads)) in \(f(waitingSeconds)) s   target ≤ +\(2 * cores)
              wall \(f(waitingSeconds * 1e6 / Double(max(waitingRequests, 1)), 0)) µs and client CPU \
            \(f(waitingCPUSeconds * 1e6 / Double(max(waitingRequests, 1)), 0)) µs per request
            """
    }
}
