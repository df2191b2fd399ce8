import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Working on a running stack, with the built binary: how long `startup restart api` takes against what the service
/// itself needs to stop and to be ready again (both read off the service's own clock), how soon a reload starts after
/// a file's change (minus the debounce), and what `startup ps` on a 100-service stack costs as a whole command
/// against `startup --version` timed the same way.
struct ControlScenario: Scenario {
    let key = "control"
    let title = "10. A running stack: restart by hand, reload on a change, ps"

    /// The debounce of the reload's watched command.
    private static let debounce = Duration.milliseconds(50)

    func run(_ options: BenchOptions) async -> [Figure] {
        let names = ["restart-ready-vs-own", "reload-latency-ms", "control-vs-version"]
        guard case .found(let startup) = ExternalPeers.startupBinary() else {
            return names.map { .skipped($0, "startup binary not found: swift build -c release --product startup, or set STARTUP_BIN") }
        }
        return [
            figure(names[0]) { try restartFigure(startup, options) },
            figure(names[1]) { try reloadFigure(startup, options) },
            figure(names[2]) { try psFigure(startup, options) },
        ]
    }

    /// The figure `body` measures, or why it could not.
    private func figure(_ name: String, _ body: () throws -> Figure) -> Figure {
        do { return try body() } catch { return .skipped(name, "\(error)") }
    }

    /// Why a figure could not be measured.
    private struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: - restart-ready-vs-own

    /// The api writes, on its own clock, when it starts, when it is ready (after 200 ms of work), when SIGTERM comes
    /// and when it has finished stopping (100 ms later).
    private static let apiScript = """
        echo "start $(date +%s%N)" >> times
        trap 'echo "term $(date +%s%N)" >> times; sleep 0.1; echo "exit $(date +%s%N)" >> times; exit 0' TERM
        sleep 0.2
        echo "ready $(date +%s%N)" >> times
        echo api ready
        while :; do sleep 1 & wait $!; done
        """

    private func restartFigure(_ startup: String, _ options: BenchOptions) throws -> Figure {
        let stack = try Stack(
            startup: startup, in: makeTemporaryDirectory(),
            commands: [#"{"id": "api", "run": "sh api.sh", "ready": {"log": "api ready"}}"#], files: ["api.sh": Self.apiScript])
        defer { stack.stop() }
        var restarts = Samples()
        var owns = Samples()
        var ratios: [Double] = []
        for _ in 0..<options.repetitions {
            try stack.truncate("times")
            let outcome = ProcessRunner.run(
                startup, ["restart", "api", "--file", stack.manifest], stderrPath: stack.folder + "/client.err")
            if let failure = outcome.failure { throw Problem(description: "startup restart api: \(failure): \(stack.read("client.err"))") }
            let times = try stack.times("times")
            guard let term = times["term"], let exit = times["exit"], let start = times["start"], let ready = times["ready"] else {
                throw Problem(description: "the api did not write its times: \(stack.read("times"))")
            }
            let own = Duration.nanoseconds(exit - term + ready - start)
            restarts.append(outcome.wallTime)
            owns.append(own)
            ratios.append(outcome.wallTime.benchMilliseconds / own.benchMilliseconds)
        }
        printSamples("restart api", restarts)
        printSamples("its own stop + ready", owns)
        let ratio = ratios.sorted()[ratios.count / 2]
        // The target, 1.05 plus 20 ms, as a ratio against this service's own time.
        return .number("restart-ready-vs-own", ratio, decimals: 3, target: .atMost(1.05 + 20 / owns.median))
    }

    // MARK: - reload-latency-ms

    private func reloadFigure(_ startup: String, _ options: BenchOptions) throws -> Figure {
        let debounce = Self.debounce.benchMilliseconds
        let stack = try Stack(
            startup: startup, in: makeTemporaryDirectory(),
            commands: [
                #"{"id": "build", "run": "echo \"$(date +%s%N)\" >> starts", "watch": {"paths": ["src/*.txt"], "debounce": "\#(Int(debounce))ms"}}"#,
                #"{"id": "api", "dependencies": ["build"], "run": "echo api ready; exec sleep 600", "ready": {"log": "api ready"}}"#,
            ],
            files: ["src/app.txt": "0"])
        defer { stack.stop() }
        var latencies = Samples()
        for round in 0..<options.repetitions {
            let before = stack.read("starts").split(separator: "\n").count
            let changedAt = WallClock.nanoseconds()
            try "\(round)".write(toFile: stack.folder + "/src/app.txt", atomically: false, encoding: .utf8)
            var lines: [Substring] = []
            let deadline = ContinuousClock.now + .seconds(10)
            while lines.count <= before {
                guard ContinuousClock.now < deadline else { throw Problem(description: "no reload within 10 s of a change") }
                usleep(1000)
                lines = stack.read("starts").split(separator: "\n")
            }
            guard let started = Int64(lines[before]) else { throw Problem(description: "unreadable start time \(lines[before])") }
            latencies.append(.nanoseconds(started - changedAt) - Self.debounce)
            // Lets the reload's dependents settle before the next change.
            usleep(300_000)
        }
        printSamples("change to start", latencies, extra: "  (minus the \(Int(debounce)) ms debounce)")
        return .number("reload-latency-ms", latencies.median, decimals: 1, target: .atMost(50))
    }

    // MARK: - control-vs-version

    private func psFigure(_ startup: String, _ options: BenchOptions) throws -> Figure {
        let count = 100
        let stack = try Stack(
            startup: startup, in: makeTemporaryDirectory(),
            commands: (0..<count).map { #"{"id": "s\#($0)", "run": "exec sleep 600", "ready": {"after": "0s"}}"# })
        defer { stack.stop() }
        var ps = Samples()
        var version = Samples()
        for _ in 0..<max(options.repetitions, 5) * 4 {
            let listed = ProcessRunner.run(startup, ["ps", "--file", stack.manifest], stderrPath: stack.folder + "/client.err")
            if let failure = listed.failure { throw Problem(description: "startup ps: \(failure): \(stack.read("client.err"))") }
            ps.append(listed.wallTime)
            let printed = ProcessRunner.run(startup, ["--version"], stderrPath: "/dev/null")
            if let failure = printed.failure { throw Problem(description: "startup --version: \(failure)") }
            version.append(printed.wallTime)
        }
        printSamples("ps (\(count) services)", ps)
        printSamples("--version", version)
        return .number("control-vs-version", ps.median / version.median, decimals: 2, target: .atMost(2))
    }
}

/// A `startup run` of a manifest in a folder of its own, up until ``stop()``.
private struct Stack {
    let folder: String
    let manifest: String
    let pid: pid_t

    init(startup: String, in folder: String, commands: [String], files: [String: String] = [:]) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder + "/src", withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        manifest = folder + "/commands.json"
        try (#"{"version": 1, "commands": ["# + commands.joined(separator: ",\n") + "]}").write(
            toFile: manifest, atomically: true, encoding: .utf8)
        switch ProcessRunner.start(
            startup, ["run", "--file", manifest, "--no-report"], stdoutPath: folder + "/run.out", stderrPath: folder + "/run.err")
        {
        case .success(let started): pid = started
        case .failure(let problem): throw problem
        }
        // Up once it says its services run.
        let deadline = ContinuousClock.now + .seconds(30)
        while !((try? String(contentsOfFile: folder + "/run.out", encoding: .utf8)) ?? "").contains("Services running") {
            guard ContinuousClock.now < deadline else {
                let problem = StackProblem(description: "the stack was not up within 30 s: \(read("run.err"))")
                stop()
                throw problem
            }
            usleep(2000)
        }
    }

    struct StackProblem: Error, CustomStringConvertible {
        let description: String
    }

    func read(_ name: String) -> String {
        (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
    }

    func truncate(_ name: String) throws {
        try "".write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
    }

    /// `WORD NANOSECONDS` lines of file `name`, the last of each word.
    func times(_ name: String) throws -> [String: Int64] {
        var times: [String: Int64] = [:]
        for line in read(name).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, let value = Int64(words[1]) { times[String(words[0])] = value }
        }
        return times
    }

    /// Shuts the run down (SIGTERM, as Ctrl-C would) and removes the folder.
    func stop() {
        kill(pid, SIGTERM)
        _ = ProcessRunner.wait(pid)
        try? FileManager.default.removeItem(atPath: folder)
    }
}
