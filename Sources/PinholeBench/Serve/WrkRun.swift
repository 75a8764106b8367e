import Foundation
import Pinhole

/// One `wrk` load run against a list of request paths: the Lua script that walks the list (each thread its own
/// share, so each request is for a different path until the share wraps) and the figures its `done` function
/// prints.
public struct WrkRun: Sendable {
    /// What the run asks for.
    public struct Plan: Sendable {
        /// `http://host:port`, without a path.
        public var origin: String
        /// Request targets (`/…`), walked in order by each thread over its share (index modulo thread count).
        public var paths: [String]
        /// The `Accept` header sent, or `nil` for none.
        public var accept: String?
        /// Open connections.
        public var connections: Int
        /// wrk threads (at most `connections`).
        public var threads: Int
        /// Seconds the run lasts at most.
        public var seconds: Int
        public init(
            origin: String, paths: [String], accept: String? = nil, connections: Int, threads: Int, seconds: Int
        ) {
            self.origin = origin
            self.paths = paths
            self.accept = accept
            self.connections = connections
            self.threads = max(1, min(threads, connections))
            self.seconds = seconds
        }
    }

    /// The mark before the JSON object the script's `done` prints on stdout.
    static let marker = "PINHOLE-WRK "

    /// The Lua script for `plan`, reading its paths from `pathsFile` (one a line).
    static func script(for plan: Plan, pathsFile: String) -> String {
        let accept = plan.accept.map { "headers[\"Accept\"] = \"\($0)\"" } ?? ""
        return """
            local paths_file = "\(pathsFile)"
            local thread_count = \(plan.threads)
            local threads = {}
            local next_id = 0
            function setup(thread)
              thread:set("id", next_id)
              next_id = next_id + 1
              table.insert(threads, thread)
            end
            function init(args)
              local all = {}
              for line in io.lines(paths_file) do all[#all + 1] = line end
              paths = {}
              for i = id + 1, #all, thread_count do paths[#paths + 1] = all[i] end
              index, wrapped = 0, 0
              headers = {}
              \(accept)
            end
            function request()
              index = index + 1
              if index > #paths then index, wrapped = 1, wrapped + 1 end
              return wrk.format("GET", paths[index], headers)
            end
            function done(summary, latency, requests)
              local wrapped_total = 0
              for _, thread in ipairs(threads) do wrapped_total = wrapped_total + (thread:get("wrapped") or 0) end
              local e = summary.errors
              io.write(string.format('\(marker){"requests":%d,"durationMicroseconds":%d,"bytes":%d,' ..
                '"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"statusErrors":%d,"timeouts":%d,' ..
                '"meanMicroseconds":%.1f,"maxMicroseconds":%d,"p50Microseconds":%d,"p90Microseconds":%d,' ..
                '"p95Microseconds":%d,"p99Microseconds":%d,"wrapped":%d}\\n',
                summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
                latency.mean, latency.max, latency:percentile(50), latency:percentile(90), latency:percentile(95),
                latency:percentile(99), wrapped_total))
            end

            """
    }

    /// wrk's arguments for `plan` with the script at `scriptFile`.
    static func arguments(for plan: Plan, scriptFile: String) -> [String] {
        [
            "-t", String(plan.threads), "-c", String(plan.connections), "-d", "\(plan.seconds)s", "--timeout", "60s",
            "-s", scriptFile, plan.origin + "/",
        ]
    }

    /// Runs `wrk` for `plan`, its files in `directory`.
    ///
    /// - Throws: when wrk cannot start, exits non-zero, or prints no figures.
    static func run(_ plan: Plan, in directory: URL, wrk: String = "/usr/bin/wrk") async throws -> WrkSummary {
        let name = "wrk-\(UUID().uuidString)"
        let pathsFile = directory.appendingPathComponent(name + ".paths").path
        let scriptFile = directory.appendingPathComponent(name + ".lua").path
        let paths = plan.paths.joined(separator: "\n") + "\n"
        let lua = script(for: plan, pathsFile: pathsFile)
        try await WorkerThreadPool.io.run {
            try paths.write(toFile: pathsFile, atomically: true, encoding: .utf8)
            try lua.write(toFile: scriptFile, atomically: true, encoding: .utf8)
        }
        let result = try await ChildProcess.run(wrk, arguments(for: plan, scriptFile: scriptFile), capturesOutput: true)
        guard result.status == 0 else { throw BenchServeError("wrk exited with status \(result.status)") }
        return try WrkSummary.parse(result.standardOutput)
    }
}
