import Foundation
import Pinhole

extension ServeBenchmark {
    /// `pinhole bench serve --overload`: one `pinhole serve` started with the settings' admission flags, cold work
    /// only (every request a source URL not asked before: download, decode, resize, encode), in five phases: its
    /// idle RSS; its capacity C (200s per second of closed-loop wrk at 2 × cores connections); open loop at
    /// ``ServeOverloadSettings/unloadedFraction`` × C (the unloaded p99); open loop at
    /// ``ServeOverloadSettings/factor`` × C, RSS sampled every half second; then RSS each second while idle.
    ///
    /// - Throws: ``BenchServeError`` when a tool is missing, a server does not start or answer, or the capacity is
    ///   zero.
    public func runOverload(
        _ settings: ServeOverloadSettings, progress: @escaping @Sendable (String) -> Void
    ) async throws -> ServeOverloadResult {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-bench-overload-\(UUID())")
        defer { try? FileManager.default.removeItem(at: work) }
        let loadBefore = Self.loadAverage()
        let python = try await Self.benchPython(scriptsDirectory: settings.scriptsDirectory)
        progress("making the 2K corpus from \(configuration.corpus)")
        let corpus = try await ServeCorpus.make(
            from: configuration.corpus, in: work.appendingPathComponent("corpus"), limit: configuration.fileLimit)
        let nginx = try await NginxServer(
            root: corpus.directory, probeFile: corpus.files[0], prefix: work.appendingPathComponent("nginx"),
            workers: configuration.cores, quality: Self.quality)
        let context = RunContext(corpus: corpus, nginx: nginx, work: work)
        do {
            let accessLog = work.appendingPathComponent("access.log").path
            let (server, port) = try await startServer(
                context, extraArguments: settings.serverArguments, environment: settings.serverEnvironment,
                accessLog: accessLog)
            do {
                let phases = OverloadPhases(
                    benchmark: self, settings: settings, context: context, python: python, pid: server.pid,
                    target: "http://127.0.0.1:\(port)", progress: progress)
                var result = try await phases.run(corpus: corpus, loadBefore: loadBefore)
                result.metrics = try await Self.metrics(port: port).filter {
                    $0.key.hasPrefix("admission_") || $0.key.hasPrefix("memory_budget")
                }
                result.goals = result.evaluatedGoals
                await server.stop()
                let log = try await WorkerThreadPool.io.run { try String(contentsOfFile: accessLog, encoding: .utf8) }
                result.serverOverload = ServerAccessLog.latencies(log, targetContaining: "%3Fo%3Doverload-")
                await nginx.stop()
                return result
            } catch {
                await server.stop()
                throw error
            }
        } catch {
            await nginx.stop()
            throw error
        }
    }

    /// The bench venv's python3 (``ServeOverloadSettings/scriptsDirectory``'s `bench-venv.sh` makes it when absent).
    static func benchPython(scriptsDirectory: String) async throws -> String {
        let result = try await ChildProcess.run("/bin/sh", [scriptsDirectory + "/bench-venv.sh"], capturesOutput: true)
        let python = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !python.isEmpty else {
            throw BenchServeError("scripts/bench-venv.sh failed (exit \(result.status))")
        }
        return python
    }

    /// `count` signed cold JPEG paths: each a source URL not asked before (`?o=TAG-INDEX` on a corpus file).
    func coldPaths(_ count: Int, tag: String, context: RunContext) -> [String] {
        let files = context.corpus.files
        return (0..<count).map { index in
            path(source: "\(context.origin)/\(files[index % files.count])?o=\(tag)-\(index)", format: .jpeg)
        }
    }
}
