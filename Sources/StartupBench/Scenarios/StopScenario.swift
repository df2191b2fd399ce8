import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stopping at scale: `startup run` of 500 wrappers whose shell ignores SIGTERM (`sh -c 'trap "" TERM; sleep 600 &
/// wait'`, the sleep inherits the ignored signal), interrupted once all of them run, timed from the SIGTERM to the
/// exit, over the grace period the run was given (1 s). Nothing but the grace period bounds the wait from below:
/// each wrapper is killed once it is over.
struct StopScenario: Scenario {
    let key = "stop"
    let title = "9. Stopping 500 TERM-ignoring wrappers: interrupt to exit, over the grace period"

    /// The grace period the runs are given.
    private static let gracePeriod = Duration.seconds(1)

    func run(_ options: BenchOptions) async -> [Figure] {
        let name = "stop-500-vs-grace"
        guard case .found(let startup) = ExternalPeers.startupBinary() else {
            return [.skipped(name, "startup binary not found: swift build -c release --product startup, or set STARTUP_BIN")]
        }
        let count = options.size(full: 500, quick: 100)
        let folder: String
        do {
            folder = try makeTemporaryDirectory()
            try writeManifest(count: count, in: folder)
        } catch {
            return [.skipped(name, "cannot write the manifest: \(error)")]
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }

        var samples = Samples()
        for _ in 0..<options.repetitions {
            switch stopOnce(startup, count: count, in: folder) {
            case .success(let elapsed): samples.append(elapsed)
            case .failure(let problem): return [.skipped(name, problem.description)]
            }
        }
        let grace = Self.gracePeriod.benchMilliseconds
        printSamples("\(count) stops", samples, extra: "  (grace period \(Format.fixed(grace, 0)) ms)")
        return [.number(name, samples.median / grace, decimals: 2, target: .atMost(4))]
    }

    /// Why a stop could not be timed.
    private struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `commands.json`, whose `count` wrappers write their sleep's pid to the FIFO `ready`.
    private func writeManifest(count: Int, in folder: String) throws {
        let command = #"{"id": "c%d", "run": "sh -c 'trap \"\" TERM; sleep 600 & echo $! > ready; wait'"}"#
        let commands = (0..<count).map { String(format: command, $0) }.joined(separator: ",\n")
        try (#"{"version": 1, "commands": ["# + commands + "]}").write(
            toFile: folder + "/commands.json", atomically: true, encoding: .utf8)
        guard mkfifo(folder + "/ready", 0o600) == 0 else { throw Problem(description: "mkfifo: \(String(cString: strerror(errno)))") }
    }

    /// Runs the manifest once, interrupts it once all its wrappers run, and returns the time from the interrupt
    /// to the exit. The sleeps are killed afterwards whatever happened.
    private func stopOnce(_ startup: String, count: Int, in folder: String) -> Result<Duration, Problem> {
        // Read and write, so the FIFO never reads its end while the wrappers come and go.
        let ready = open(folder + "/ready", O_RDWR | O_CLOEXEC)
        guard ready >= 0 else { return .failure(Problem(description: "cannot open the FIFO: \(String(cString: strerror(errno)))")) }
        defer { close(ready) }
        let arguments = [
            "run", "--file", folder + "/commands.json", "-j", String(count), "--no-report",
            "--grace-period", "\(Self.gracePeriod.components.seconds)s",
        ]
        let pid: pid_t
        switch ProcessRunner.start(startup, arguments, stderrPath: folder + "/stderr") {
        case .success(let started): pid = started
        case .failure(let problem): return .failure(Problem(description: problem.description))
        }
        let sleeps = (0..<count).compactMap { _ in pid_t(Self.line(from: ready)) }
        defer { for sleep in sleeps { kill(sleep, SIGKILL) } }
        let clock = ContinuousClock()
        let start = clock.now
        kill(pid, SIGTERM)
        let failure = ProcessRunner.wait(pid)
        let elapsed = start.duration(to: clock.now)
        guard failure == "exit status 130" else {
            return .failure(Problem(description: "startup run ended with \(failure ?? "status 0"), not 130"))
        }
        return .success(elapsed)
    }

    /// The next line of `descriptor`, read a byte at a time.
    private static func line(from descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
