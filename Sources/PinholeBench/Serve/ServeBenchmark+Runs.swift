import Foundation
import PinholeShared

extension ServeBenchmark {
    /// Characters left as they are in a plain source (RFC 3986's unreserved set); everything else is
    /// percent-encoded, `?` included, so the origin URL's query stays inside the source.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The signed processing path of `source` at 512 × 512 fit: `@jpg` for JPEG, no extension (negotiated) for
    /// WebP.
    func path(source: String, format: ServeFormat) -> String {
        let encoded = source.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? source
        return configuration.sign(
            "/rs:fit:\(Self.side):\(Self.side)/plain/\(encoded)" + (format == .jpeg ? "@jpg" : ""))
    }

    static func accept(_ format: ServeFormat) -> String? {
        format == .webp ? "image/webp" : nil
    }

    /// One run on a fresh `pinhole serve`: cold (a new source URL per request: a unique query on the origin
    /// file) or steady (one URL per photo, primed once, then cycled).
    func pinholeRun(
        _ format: ServeFormat, _ pass: ServePass, connections: Int, context: RunContext
    ) async throws -> ServeRun {
        let files = context.corpus.files
        let paths: [String]
        switch pass {
        case .cold:
            // More distinct URLs than the server can answer in the run (a wrap is reported).
            let count = configuration.seconds * 200 + connections * 4
            let tag = "\(format.rawValue)-\(connections)"
            paths = (0..<count).map { index in
                path(source: "\(context.origin)/\(files[index % files.count])?u=\(tag)-\(index)", format: format)
            }
        case .steady:
            paths = files.map { path(source: "\(context.origin)/\($0)", format: format) }
        }
        let (server, port) = try await startServer(context)
        do {
            let target = "http://127.0.0.1:\(port)"
            if pass == .steady {
                let priming = try await CurlRound.run(
                    urls: paths.map { target + $0 }, accept: Self.accept(format), parallel: configuration.cores,
                    in: context.work)
                guard priming.errors == 0, priming.requests == paths.count else {
                    throw BenchServeError("priming: \(priming.statuses) for \(paths.count) URLs")
                }
            }
            let plan = WrkRun.Plan(
                origin: target, paths: paths, accept: Self.accept(format), connections: connections,
                threads: configuration.cores, seconds: configuration.seconds)
            let originBefore = try await context.nginx.originRequestCount()
            let before = server.sample
            let summary = try await WrkRun.run(plan, in: context.work)
            let after = server.sample
            let originRequests = try await context.nginx.originRequestCount() - originBefore
            var run = ServeRun(
                server: .pinhole, format: format, pass: pass, summary: summary,
                peakResidentBytes: after.peakResidentBytes, cpuSeconds: after.cpuSeconds - before.cpuSeconds,
                originRequests: originRequests, connections: connections)
            run.metrics = try await Self.metrics(port: port)
            await server.stop()
            return run
        } catch {
            await server.stop()
            throw error
        }
    }

    /// One run of nginx image_filter over the same files (it reads them itself and caches nothing: every answer
    /// is made).
    func nginxRun(connections: Int, context: RunContext) async throws -> ServeRun {
        let plan = WrkRun.Plan(
            origin: "http://127.0.0.1:\(context.nginx.filterPort)", paths: context.corpus.files.map { "/" + $0 },
            connections: connections, threads: configuration.cores, seconds: configuration.seconds)
        let before = context.nginx.sample
        let summary = try await WrkRun.run(plan, in: context.work)
        let after = context.nginx.sample
        return ServeRun(
            server: .nginxImageFilter, format: .jpeg, pass: .cold, summary: summary,
            peakResidentBytes: after.peakResidentBytes, cpuSeconds: after.cpuSeconds - before.cpuSeconds,
            originRequests: 0, connections: connections)
    }

    /// ``Configuration/hotRequests`` requests spread over ``Configuration/hotSources`` uncached JPEG sources
    /// (interleaved), ``Configuration/hotConnections`` at a time, on a fresh server; then the same round again
    /// (all cached). curl makes the requests: wrk cannot stop after a count.
    func hotKeyRun(coldCPUSecondsPerRequest: Double, context: RunContext) async throws -> HotKeyResult {
        let sources = context.corpus.files.prefix(configuration.hotSources)
        let paths = sources.map { path(source: "\(context.origin)/\($0)?hot=1", format: .jpeg) }
        let (server, port) = try await startServer(context)
        let urls = (0..<configuration.hotRequests).map { "http://127.0.0.1:\(port)" + paths[$0 % paths.count] }
        do {
            let originBefore = try await context.nginx.originRequestCount()
            let start = server.sample
            let first = try await CurlRound.run(
                urls: urls, accept: nil, parallel: configuration.hotConnections, in: context.work)
            let middle = server.sample
            let originRequests = try await context.nginx.originRequestCount() - originBefore
            let second = try await CurlRound.run(
                urls: urls, accept: nil, parallel: configuration.hotConnections, in: context.work)
            let end = server.sample
            let metrics = try await Self.metrics(port: port)
            await server.stop()
            return HotKeyResult(
                requests: first.requests, sources: paths.count, connections: configuration.hotConnections,
                requestsPerSecond: first.requestsPerSecond, p95Milliseconds: first.percentile(0.95) * 1000,
                errors: first.errors + second.errors, originRequests: originRequests,
                cpuSecondsPerRequest: (middle.cpuSeconds - start.cpuSeconds) / Double(max(1, first.requests)),
                cachedCPUSecondsPerRequest: (end.cpuSeconds - middle.cpuSeconds) / Double(max(1, second.requests)),
                cachedRequestsPerSecond: second.requestsPerSecond,
                cachedP95Milliseconds: second.percentile(0.95) * 1000,
                coldCPUSecondsPerRequest: coldCPUSecondsPerRequest, peakResidentBytes: end.peakResidentBytes,
                metrics: metrics)
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Starts `pinhole serve` on a free loopback port with the signing arguments, the origin allowed,
    /// `--concurrency` = cores and `extraArguments`, its environment this process's plus `environment`, its access
    /// log (stdout) in `accessLog` or /dev/null; returns once `/health` answers 200.
    func startServer(
        _ context: RunContext, extraArguments: [String] = [], environment: [String: String] = [:],
        accessLog: String? = nil
    ) async throws -> (ServedChild, Int) {
        let port = try LoopbackPort.free()
        let arguments =
            ["serve", "--listen", "127.0.0.1:\(port)"] + configuration.signingArguments
            + ["--allow-source", context.origin + "/", "--concurrency", String(configuration.cores)] + extraArguments
        let server = try ServedChild(
            "pinhole serve", executable: configuration.pinholeExecutable, arguments: arguments,
            environment: environment, logFile: context.work.appendingPathComponent("serve-\(port).log").path,
            outputFile: accessLog)
        do {
            try await server.waitUntilAnswering("http://127.0.0.1:\(port)/health")
        } catch {
            await server.stop()
            throw error
        }
        return (server, port)
    }

    /// The server's `/metrics` samples.
    static func metrics(port: Int) async throws -> [String: Double] {
        let result = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "--max-time", "5", "http://127.0.0.1:\(port)/metrics"], capturesOutput: true)
        return PrometheusText.samples(result.standardOutput)
    }
}
