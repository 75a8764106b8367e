/// One target of issue 26's serving benchmark: a measured figure, the bound it must meet, and whether it does.
public struct ServeTarget: Sendable, Codable, Hashable {
    /// How the figure must relate to ``bound``.
    public enum Comparison: String, Sendable, Codable, Hashable {
        case atLeast = ">="
        case atMost = "<="
        case exactly = "=="
    }

    /// What is compared, in words (`server / in-process rate, JPEG cold`).
    public var name: String
    /// The measured figure (a ratio, a count, megabytes).
    public var measured: Double
    public var comparison: Comparison
    public var bound: Double
    /// Whether ``measured`` meets ``bound``; `false` when the figure could not be measured (NaN or infinite).
    public var met: Bool

    public init(_ name: String, measured: Double, _ comparison: Comparison, _ bound: Double) {
        self.name = name
        self.measured = measured
        self.comparison = comparison
        self.bound = bound
        met = Self.meets(measured, comparison, bound)
    }

    static func meets(_ measured: Double, _ comparison: Comparison, _ bound: Double) -> Bool {
        guard measured.isFinite else { return false }
        switch comparison {
        case .atLeast: return measured >= bound
        case .atMost: return measured <= bound
        case .exactly: return measured == bound
        }
    }

    /// `a / b`, or NaN when `b` is not positive (a figure that was not measured).
    static func ratio(_ a: Double, _ b: Double) -> Double {
        b > 0 ? a / b : .nan
    }
}

extension ServeBenchmarkResult {
    /// Issue 26's targets evaluated over this result's figures (those measured; nginx's only with `--compare`).
    public var evaluatedTargets: [ServeTarget] {
        var targets: [ServeTarget] = []
        let cold = runs.filter { $0.server == .pinhole && $0.pass == .cold }
        for format in ServeFormat.allCases {
            guard let reference = inProcess.first(where: { $0.format == format }) else { continue }
            if let best = cold.filter({ $0.format == format }).max(by: { $0.requestsPerSecond < $1.requestsPerSecond })
            {
                targets.append(
                    ServeTarget(
                        "server / in-process rate, \(format.rawValue) cold (best: \(best.connections) conn.)",
                        measured: ServeTarget.ratio(best.requestsPerSecond, reference.imagesPerSecond.median),
                        .atLeast, 0.9))
            }
            if let two = cold.first(where: { $0.format == format && $0.connections == 2 }) {
                // The same bound read from CPU time, which other load on the machine barely moves.
                targets.append(
                    ServeTarget(
                        "in-process CPU per image / server CPU per request, \(format.rawValue) cold, 2 conn.",
                        measured: ServeTarget.ratio(reference.cpuSecondsPerImage, two.cpuSecondsPerRequest),
                        .atLeast, 0.9))
                targets.append(
                    ServeTarget(
                        "p95 at 2 conn. / in-process time per image, \(format.rawValue) cold",
                        measured: ServeTarget.ratio(two.p95Milliseconds / 1000, reference.secondsPerImage), .atMost,
                        1.5))
            }
        }
        for nginx in runs where nginx.server == .nginxImageFilter {
            guard let pinhole = cold.first(where: { $0.format == nginx.format && $0.connections == nginx.connections })
            else { continue }
            targets.append(
                ServeTarget(
                    "pinhole / nginx image_filter req/s, \(nginx.format.rawValue) cold, \(nginx.connections) conn.",
                    measured: ServeTarget.ratio(pinhole.requestsPerSecond, nginx.requestsPerSecond), .atLeast, 2.5))
        }
        if let hot = hotKeys {
            targets.append(
                ServeTarget(
                    "origin requests for \(hot.requests) hot requests over \(hot.sources) sources",
                    measured: Double(hot.originRequests), .exactly, Double(hot.sources)))
            targets.append(
                ServeTarget(
                    "CPU per hot request / per cold request (\(hot.connections) conn.)",
                    measured: ServeTarget.ratio(hot.cpuSecondsPerRequest, hot.coldCPUSecondsPerRequest), .atMost, 0.1))
        }
        let at64 =
            runs.filter { $0.server == .pinhole && $0.connections == 64 }.map(\.peakResidentBytes)
            + (hotKeys.map { [$0.peakResidentBytes] } ?? [])
        if let peak = at64.max() {
            targets.append(
                ServeTarget("server peak RSS at 64 conn., MB", measured: Double(peak) / 1_000_000, .atMost, 300))
        }
        return targets
    }
}
