import Foundation
import StartupKit

/// `startup run` against GNU make and ninja on identical DAGs of shell commands, each tool spawned
/// with `posix_spawn` and timed to its exit.
struct CLIScenario: Scenario {
    let key = "cli"
    let title = "5. CLI: startup run vs make -j vs ninja -j on the same DAG (wall time of the whole process)"

    /// One graph and the `-j` it runs with.
    private struct Case {
        /// The case's name in figure names, such as `true-j2`.
        let name: String
        /// The commands.
        let graph: BenchGraph
        /// The parallelism given to every tool.
        let jobs: Int

        /// Every command is `true`: the case also runs the spawn floor.
        var isSpawnStorm: Bool { graph.durationsMs.allSatisfy { $0 == 0 } }
    }

    /// A contender in a case: an external tool, or the spawn floor.
    private struct Tool {
        /// `startup`, `make`, `ninja` or `floor`.
        let name: String
        /// Runs it once on a case directory with a job count, standard error to the given path.
        let run: (_ directory: String, _ jobs: Int, _ stderrPath: String) -> ProcessRunner.Outcome
    }

    /// The name of the spawn floor among the contenders.
    private static let floorName = "floor"

    /// Writes the cases' files, times every available tool on each, and returns the ratios.
    func run(_ options: BenchOptions) async -> [Figure] {
        let cases = [
            Case(
                name: "true-j2",
                graph: .random(count: options.size(full: 1_000, quick: 200), maxDependencies: 3, durationsMs: 0...0, seed: 11), jobs: 2),
            Case(
                name: "random-j64",
                graph: .random(count: options.size(full: 300, quick: 100), maxDependencies: 3, durationsMs: 5...30, seed: 12), jobs: 64),
            Case(
                name: "layered-j4",
                graph: .layered(count: options.size(full: 300, quick: 100), maxDependencies: 3, durationsMs: 5...30, seed: 13), jobs: 4),
        ]
        let root: String
        do {
            root = try makeTemporaryDirectory()
        } catch {
            return ["cli-vs-make", "cli-vs-ninja"].map { Figure.skipped($0, "cannot create a temporary directory: \(error)") }
        }
        defer { try? FileManager.default.removeItem(atPath: root) }

        var startup = ExternalPeers.startupBinary()
        if case .found(let path) = startup, let problem = verifyStartup(path, root: root) {
            startup = .missing(problem)
        }
        let peers: [(name: String, lookup: ExternalPeers.Lookup)] = [
            ("make", ExternalPeers.inPath("make", installHint: "apt-get install make")),
            ("ninja", ExternalPeers.inPath("ninja", installHint: "apt-get install ninja-build")),
        ]
        for (name, lookup) in [("startup", startup)] + peers {
            switch lookup {
            case .found(let path): Console.line("  \(name): \(path)")
            case .missing(let reason): Console.line("  \(name): skipped (\(reason))")
            }
        }
        let tools = availableTools(startup: startup, peers: peers)

        var medians: [String: [String: Double]] = [:]  // case -> tool -> ms
        var figures: [Figure] = []
        for testCase in cases {
            let directory = root + "/" + testCase.name
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try DAGFiles.write(testCase.graph, to: directory)
            } catch {
                Console.line("  \(testCase.name): cannot write its files: \(error)")
                continue
            }
            let contenders = tools + (testCase.isSpawnStorm ? floorTool(for: testCase) : [])
            let results = measure(testCase, in: directory, tools: contenders, repetitions: options.repetitions)
            medians[testCase.name] = results
            for tool in tools {
                if let median = results[tool.name] {
                    figures.append(.number("cli-\(testCase.name)-\(tool.name)-ms", median, decimals: 2))
                }
            }
        }
        return ratioFigures(cases: cases, medians: medians, startup: startup, peers: peers) + figures
    }

    /// The tools that were found, with their command lines.
    private func availableTools(startup: ExternalPeers.Lookup, peers: [(name: String, lookup: ExternalPeers.Lookup)]) -> [Tool] {
        var tools: [Tool] = []
        if case .found(let path) = startup {
            tools.append(
                Tool(name: "startup") { directory, jobs, errors in
                    ProcessRunner.run(
                        path, ["run", "--file", directory + "/commands.json", "-j", String(jobs), "--output", "quiet"],
                        stderrPath: errors)
                })
        }
        for (name, lookup) in peers {
            guard case .found(let path) = lookup else { continue }
            if name == "make" {
                tools.append(
                    Tool(name: name) { directory, jobs, errors in
                        ProcessRunner.run(path, ["-s", "-f", directory + "/Makefile", "-j", String(jobs), "all"], stderrPath: errors)
                    })
            } else {
                tools.append(
                    Tool(name: name) { directory, jobs, errors in
                        try? FileManager.default.removeItem(atPath: directory + "/.ninja_log")
                        try? FileManager.default.removeItem(atPath: directory + "/.ninja_deps")
                        return ProcessRunner.run(path, ["-C", directory, "-j", String(jobs), "--quiet"], stderrPath: errors)
                    })
            }
        }
        return tools
    }

    /// Times every tool on one case, round-robin after one warm-up each; prints the medians.
    ///
    /// - Returns: The median wall time in milliseconds of each tool that never failed.
    private func measure(_ testCase: Case, in directory: String, tools: [Tool], repetitions: Int) -> [String: Double] {
        let graph = testCase.graph
        let plan = graph.validPlan(bodies: Bodies.noOps(count: graph.count), withEstimates: true)
        let criticalPath = plan.timing().criticalPathDuration.benchMilliseconds
        let simulated = plan.predictedWallTime(slots: testCase.jobs).benchMilliseconds
        Console.line(
            "  \(testCase.name): " + graph.shapeDescription + ", -j \(testCase.jobs)"
                + (simulated > 0 ? ", zero-overhead schedule \(Format.fixed(simulated, 1)) ms" : ""))

        var samples = [Samples](repeating: Samples(), count: tools.count)
        var failures = [String?](repeating: nil, count: tools.count)
        let errors = directory + "/stderr.txt"
        for round in 0...repetitions {  // Round 0 is the warm-up.
            for (index, tool) in tools.enumerated() where failures[index] == nil {
                let outcome = tool.run(directory, testCase.jobs, errors)
                if let failure = outcome.failure {
                    failures[index] = "\(failure): \(ExternalPeers.tail(of: errors))"
                } else if round > 0 {
                    samples[index].append(outcome.wallTime)
                }
            }
        }
        var medians: [String: Double] = [:]
        for (index, tool) in tools.enumerated() {
            if let failure = failures[index] {
                Console.line("    " + Format.padded(tool.name, 8) + "failed (\(failure))")
                continue
            }
            medians[tool.name] = samples[index].median
            var extra = "  \(Format.fixed(samples[index].median / Double(graph.count), 3)) ms/command"
            if simulated > 0 { extra += ", \(Format.fixed(samples[index].median / simulated, 3)) x schedule" }
            if criticalPath > 0 { extra += ", \(Format.fixed(samples[index].median / criticalPath, 3)) x critical path" }
            Console.line("    " + Format.padded(tool.name, 8) + samples[index].description + extra)
        }
        if let startup = medians["startup"] {
            for peer in ["make", "ninja", Self.floorName] {
                if let median = medians[peer] { Console.line("    startup / \(peer): \(Format.fixed(startup / median, 3))") }
            }
        }
        return medians
    }

    /// The spawn floor for a storm of `true`, or nothing (with a line saying why) if `true` is not found.
    private func floorTool(for testCase: Case) -> [Tool] {
        guard case .found(let program) = ExternalPeers.inPath("true", installHint: "coreutils") else {
            Console.line("  \(Self.floorName): skipped (true not found in PATH)")
            return []
        }
        let count = testCase.graph.count
        return [Tool(name: Self.floorName) { _, jobs, _ in SpawnFloor.run(program, count: count, slots: jobs) }]
    }

    /// `cli-vs-make`, `cli-vs-ninja` (the worst case) and one line per case, `cli-vs-spawn-floor` on the storm
    /// of `true`, or why they are skipped (a missing tool skips each of its ratios, with how to install it).
    private func ratioFigures(
        cases: [Case], medians: [String: [String: Double]], startup: ExternalPeers.Lookup,
        peers: [(name: String, lookup: ExternalPeers.Lookup)]
    ) -> [Figure] {
        var figures: [Figure] = [floorFigure(cases: cases, medians: medians, startup: startup)]
        for (peer, lookup) in peers {
            let name = "cli-vs-\(peer)"
            if let reason = lookup.missingReason ?? startup.missingReason {
                figures.append(.skipped(name, reason))
                figures += cases.map { .skipped("\(name)-\($0.name)", reason) }
                continue
            }
            var perCase: [Figure] = []
            var worst: Double?
            for testCase in cases {
                guard let ours = medians[testCase.name]?["startup"], let theirs = medians[testCase.name]?[peer] else {
                    perCase.append(.skipped("\(name)-\(testCase.name)", "a tool failed on this case, see above"))
                    continue
                }
                let ratio = ours / theirs
                worst = max(worst ?? ratio, ratio)
                perCase.append(.number("\(name)-\(testCase.name)", ratio))
            }
            figures.append(worst.map { .number(name, $0, target: .atMost(1.0)) } ?? .skipped(name, "no case completed"))
            figures += perCase
        }
        return figures
    }

    /// `cli-vs-spawn-floor`: `startup` on the storm of `true` against the bare spawn floor of the same commands.
    private func floorFigure(cases: [Case], medians: [String: [String: Double]], startup: ExternalPeers.Lookup) -> Figure {
        let name = "cli-vs-spawn-floor"
        if case .missing(let reason) = startup { return .skipped(name, reason) }
        guard let storm = cases.first(where: \.isSpawnStorm), let ours = medians[storm.name]?["startup"],
            let floor = medians[storm.name]?[Self.floorName], floor > 0
        else {
            return .skipped(name, "the storm of true did not complete, see above")
        }
        return .number(name, ours / floor, target: .atMost(1.15))
    }

    /// Checks the `startup` binary in its own subdirectory; `nil` if it works.
    private func verifyStartup(_ path: String, root: String) -> String? {
        let directory = root + "/check"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return "cannot create \(directory): \(error)"
        }
        return ExternalPeers.verifyStartup(path, in: directory)
    }
}
