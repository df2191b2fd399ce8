import Foundation

/// How soon `startup run` starts a service's dependent once the service is ready, for each probe: from the
/// moment a `startup-test-server` it runs has called `listen()` to the moment its dependent is spawned (see
/// `ReadyLatencyRig`).
struct ReadyLatencyScenario: Scenario {
    let key = "ready"
    let title = "7. Ready latency: a service's listen() to its dependent's start (startup run, tcp/http/log probes)"

    /// One way the server is probed.
    private struct Case {
        /// The case's name in figure names, such as `tcp` or `tcp-silent`.
        let name: String
        /// The manifest's probe.
        let probe: ReadyLatencyRig.Probe
        /// Whether the server prints its ready line (`tcp` and `http` probes try again at once on output).
        let printsReadyLine: Bool
    }

    /// The cases: every probe against a server that prints its ready line, and `tcp` and `http` against one
    /// that prints nothing, so only their polling finds it.
    private let cases = [
        Case(name: "tcp", probe: .tcp, printsReadyLine: true),
        Case(name: "http", probe: .http, printsReadyLine: true),
        Case(name: "log", probe: .log, printsReadyLine: true),
        Case(name: "tcp-silent", probe: .tcp, printsReadyLine: false),
        Case(name: "http-silent", probe: .http, printsReadyLine: false),
    ]

    /// The design's bound on every case's median, in milliseconds.
    private static let target = 10.0

    /// How long the server waits before listening, at least: long enough for a probe to have settled at its
    /// interval. Each round adds part of one interval (10 ms), so polled probes meet the server at every phase.
    private static let baseDelayMilliseconds = 150

    /// Finds the binaries, takes the samples round-robin (round 0 is a warm-up) and returns the figures.
    func run(_ options: BenchOptions) async -> [Figure] {
        let rig: ReadyLatencyRig
        switch makeRig() {
        case .success(let made): rig = made
        case .failure(let failure):
            Console.line("  skipped: \(failure.reason)")
            return skippedFigures(failure.reason)
        }
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        Console.line("  startup: \(rig.startup)\n  server:  \(rig.server)\n  mark:    \(rig.markLine)")

        let rounds = options.size(full: 15, quick: 3)
        var samples = [Samples](repeating: Samples(), count: cases.count)
        var scheduling = [Samples](repeating: Samples(), count: cases.count)
        var failures = [String?](repeating: nil, count: cases.count)
        var markCost = Samples()
        var markFailure: String?
        for round in 0...rounds {
            let delay = Self.baseDelayMilliseconds + (round * 10) / max(1, rounds)
            for (index, testCase) in cases.enumerated() where failures[index] == nil && markFailure == nil {
                // The mark's own cost is taken beside every sample, so both see the same load on the machine.
                switch rig.markStartCost() {
                case .success(let cost): if round > 0 { markCost.append(cost) }
                case .failure(let failure): markFailure = failure.reason
                }
                switch rig.sample(probe: testCase.probe, printsReadyLine: testCase.printsReadyLine, delayMilliseconds: delay) {
                case .success(let sample):
                    guard round > 0 else { continue }
                    samples[index].append(sample.latency)
                    scheduling[index].append(sample.scheduling)
                case .failure(let failure): failures[index] = failure.reason
                }
            }
        }
        if let markFailure {
            Console.line("  mark start-up cost: failed (\(markFailure))")
            return skippedFigures("the mark's start-up cost could not be measured: \(markFailure)")
        }
        return figures(samples: samples, scheduling: scheduling, failures: failures, markCost: markCost)
    }

    /// Prints each case's samples and returns `ready-latency-ms` (the worst case) and one figure per case.
    private func figures(samples: [Samples], scheduling: [Samples], failures: [String?], markCost: Samples) -> [Figure] {
        Console.line(
            "  mark start-up cost    " + markCost.description + ", subtracted below: "
                + Format.fixed(markCost.median, 2) + " ms (its own spawn and start, measured beside every sample)")
        var perCase: [Figure] = []
        var worst: Double?
        for (index, testCase) in cases.enumerated() {
            let name = "ready-latency-ms-\(testCase.name)"
            if let failure = failures[index] {
                Console.line("  " + Format.padded(testCase.name, 22) + "failed (\(failure))")
                perCase.append(.skipped(name, "a run failed, see above"))
                continue
            }
            let latencies = samples[index].milliseconds.map { $0 - markCost.median }
            let median = samples[index].median - markCost.median
            worst = max(worst ?? median, median)
            Console.line(
                "  " + Format.padded(testCase.name, 22) + "median \(Format.fixed(median, 2)) ms after listen(), "
                    + "samples " + latencies.map { Format.fixed($0, 2) }.joined(separator: " ")
                    + " (raw, with the mark's start: median \(Format.fixed(samples[index].median, 2)); "
                    + "startup's report, counted ready to the mark's start: median \(Format.fixed(scheduling[index].median, 2)))")
            perCase.append(.number(name, median, decimals: 2, target: .atMost(Self.target)))
        }
        let headline: Figure =
            worst.map { .number("ready-latency-ms", $0, decimals: 2, target: .atMost(Self.target)) }
            ?? .skipped("ready-latency-ms", "no case completed")
        return [headline] + perCase
    }

    /// The rig, or why the scenario cannot run.
    private func makeRig() -> Result<ReadyLatencyRig, ReadyLatencyRig.Failure> {
        let startup: String
        switch ExternalPeers.startupBinary() {
        case .found(let path): startup = path
        case .missing(let reason): return .failure(.init(reason: reason))
        }
        let server = (startup as NSString).deletingLastPathComponent + "/startup-test-server"
        guard FileManager.default.isExecutableFile(atPath: server) else {
            return .failure(
                .init(
                    reason: "startup-test-server not found beside \(startup): "
                        + "swift build -c release --product startup-test-server"))
        }
        guard case .found(let date) = ExternalPeers.inPath("date", installHint: "coreutils") else {
            return .failure(.init(reason: "date not found in PATH (coreutils): the dependent prints the clock with it"))
        }
        var base = FileManager.default.temporaryDirectory.path
        if base.contains(where: \.isWhitespace) { base = "/tmp" }
        let directory = base + "/startup-bench-ready-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return .failure(.init(reason: "cannot create \(directory): \(error)"))
        }
        return .success(ReadyLatencyRig(startup: startup, server: server, date: date, directory: directory))
    }

    /// Every figure of the scenario, skipped for `reason`.
    private func skippedFigures(_ reason: String) -> [Figure] {
        (["ready-latency-ms"] + cases.map { "ready-latency-ms-\($0.name)" }).map { Figure.skipped($0, reason) }
    }
}
