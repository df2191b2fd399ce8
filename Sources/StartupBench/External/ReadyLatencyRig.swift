import Foundation
import StartupCLI

/// What the ready-latency scenario runs, one sample at a time: `startup run` on a manifest of two commands, a
/// `startup-test-server` service `server` and a dependent `mark` that prints the wall clock as it starts, then
/// `-- true`, so every run ends by itself and stops the server.
///
/// The server writes the wall clock right after its `listen()` (`--ready-time-file`); the mark is `date
/// +mark=%s%N`, run directly (no shell), its output streamed to the bench. The difference, less the mark's own
/// start-up cost (`markStartCost()`: the same argv spawned by the bench, from just before `posix_spawn` to the
/// time it prints), is how long after the server became ready `startup` spawned its dependent.
struct ReadyLatencyRig {
    /// How `startup` learns that the server is ready.
    enum Probe: String, Sendable {
        /// `{"tcp": "127.0.0.1:PORT"}`.
        case tcp
        /// `{"http": "http://127.0.0.1:PORT/health"}`.
        case http
        /// `{"log": "listening"}`: the server prints its ready line.
        case log
    }

    /// What one run measured.
    struct Sample: Sendable {
        /// From the server's `listen()` to the clock the mark read first thing.
        let latency: Duration
        /// `startup`'s own view, from its report: from the moment it counted the server ready to the mark's start.
        let scheduling: Duration
    }

    /// Why a sample could not be taken.
    struct Failure: Error {
        /// What went wrong, for the bench's output.
        let reason: String
    }

    /// The text the server prints once listening, and the `log` probe's text.
    static let readyLine = "listening"

    /// The `startup` binary.
    let startup: String
    /// The `startup-test-server` binary.
    let server: String
    /// The mark's `run` line: prints `mark=` and the wall clock in nanoseconds.
    let markLine: String
    /// A folder of the bench's own for the manifest and the files the processes write.
    let directory: String

    /// A rig whose mark is `date` (an absolute path) printing the wall clock.
    init(startup: String, server: String, date: String, directory: String) {
        self.startup = startup
        self.server = server
        markLine = Self.shellWord(date) + " +mark=%s%N"
        self.directory = directory
    }

    /// One run: how long after the server's `listen()` the mark read the clock, and how much of that `startup`
    /// spent between counting the server ready and starting the mark.
    ///
    /// - Parameters:
    ///   - probe: The server's `ready` probe.
    ///   - printsReadyLine: Whether the server prints its ready line (`tcp` and `http` probes also try again at
    ///     once when a service prints; without it they are polled alone). Always true for `log`.
    ///   - delayMilliseconds: How long the server waits before it listens.
    func sample(probe: Probe, printsReadyLine: Bool, delayMilliseconds: Int) -> Result<Sample, Failure> {
        guard let port = LoopbackPort.unused() else { return .failure(Failure(reason: "no free port on 127.0.0.1")) }
        let readyFile = directory + "/ready-time"
        let output = directory + "/stdout.txt"
        let errors = directory + "/stderr.txt"
        let manifest = directory + "/commands.json"
        let report = directory + "/report.json"
        try? FileManager.default.removeItem(atPath: readyFile)
        // A fresh report each time: `startup` would learn estimates from the last one.
        try? FileManager.default.removeItem(atPath: report)
        var serverLine =
            Self.shellWord(server) + " --port \(port) --delay \(delayMilliseconds)ms --ready-time-file "
            + Self.shellWord(readyFile)
        if printsReadyLine || probe == .log { serverLine += " --ready-line \(Self.readyLine)" }
        let ready: [String: String] =
            switch probe {
            case .tcp: ["tcp": "127.0.0.1:\(port)"]
            case .http: ["http": "http://127.0.0.1:\(port)/health"]
            case .log: ["log": Self.readyLine]
            }
        let commands: [[String: Any]] = [
            ["id": "server", "run": serverLine, "ready": ready, "timeout": "10s"],
            ["id": "mark", "dependencies": ["server"], "run": markLine],
        ]
        do {
            let data = try JSONSerialization.data(withJSONObject: ["version": 1, "commands": commands], options: [.sortedKeys])
            try data.write(to: URL(fileURLWithPath: manifest))
        } catch {
            return .failure(Failure(reason: "cannot write \(manifest): \(error)"))
        }

        let outcome = ProcessRunner.run(
            startup, ["run", "--report", report, "--output", "stream", "--file", manifest, "--", "true"],
            stdoutPath: output, stderrPath: errors)
        if let failure = outcome.failure {
            return .failure(Failure(reason: "startup run \(failure): \(ExternalPeers.tail(of: errors))"))
        }
        if LoopbackPort.accepts(port) {
            return .failure(Failure(reason: "the server still listens on port \(port) after startup run ended"))
        }
        guard let readyAt = Self.number(in: readyFile, after: "") else {
            return .failure(Failure(reason: "the server wrote no time to \(readyFile)"))
        }
        guard let markedAt = Self.number(in: output, after: "mark=") else {
            return .failure(Failure(reason: "no mark= line in the output of startup run: \(ExternalPeers.tail(of: output))"))
        }
        guard markedAt >= readyAt else {
            return .failure(Failure(reason: "the mark started before the server listened (something else on port \(port)?)"))
        }
        guard let scheduling = Self.scheduling(inReport: report) else {
            return .failure(Failure(reason: "no server endMs and mark startMs in \(report)"))
        }
        return .success(Sample(latency: .nanoseconds(markedAt - readyAt), scheduling: scheduling))
    }

    /// The report's `startMs` of the mark less the server's `endMs` (the moment it was counted ready).
    private static func scheduling(inReport path: String) -> Duration? {
        guard let data = FileManager.default.contents(atPath: path),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let commands = root["commands"] as? [[String: Any]]
        else { return nil }
        func milliseconds(_ id: String, _ key: String) -> Double? {
            commands.first { $0["id"] as? String == id }?[key] as? Double
        }
        guard let ready = milliseconds("server", "endMs"), let start = milliseconds("mark", "startMs") else { return nil }
        return .nanoseconds(Int64((start - ready) * 1e6))
    }

    /// The mark's own start-up cost: its argv as `startup` would spawn it (`CommandLineSplitter`), spawned by the
    /// bench, from just before `posix_spawn` to the clock it prints.
    func markStartCost() -> Result<Duration, Failure> {
        let arguments = CommandLineSplitter.plan(for: markLine).arguments
        let output = directory + "/mark.txt"
        let errors = directory + "/mark-stderr.txt"
        let outcome = ProcessRunner.run(arguments[0], Array(arguments.dropFirst()), stdoutPath: output, stderrPath: errors)
        if let failure = outcome.failure {
            return .failure(Failure(reason: "\(markLine): \(failure): \(ExternalPeers.tail(of: errors))"))
        }
        guard let markedAt = Self.number(in: output, after: "mark=") else {
            return .failure(Failure(reason: "\(markLine) printed no mark= line"))
        }
        return .success(.nanoseconds(markedAt - outcome.spawnedAt))
    }

    /// The integer on the first line of the file at `path` that starts with `prefix`, after it.
    private static func number(in path: String, after prefix: String) -> Int64? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").lazy.filter { $0.hasPrefix(prefix) }.compactMap { Int64($0.dropFirst(prefix.count)) }.first
    }

    /// `text` as one shell word: as it is when it has nothing the shell would read, else in single quotes.
    private static func shellWord(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+=:,@%".contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
