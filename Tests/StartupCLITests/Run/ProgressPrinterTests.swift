import StartupKit
import StartupReporting
import Testing

@testable import StartupCLI

/// The progress lines of `startup run`: events that arrive together are written at once, and read
/// exactly as they would one at a time.
@Suite struct ProgressPrinterTests {
    private struct Broken: Error, CustomStringConvertible {
        var description: String { "exit status 3" }
    }

    private static let events: [StartupEvent] = [
        .runStarted(commandCount: 4),
        .commandStarted("database", attempt: 1, at: .zero),
        .commandFinished("database", status: .succeeded, attempts: 1, startOffset: .zero, at: .milliseconds(1_250)),
        .commandRetrying("cache", failedAttempt: 1, outcome: .failed(Broken()), delay: .milliseconds(200), at: .seconds(2)),
        .commandFinished("cache", status: .failed(Broken()), attempts: 2, startOffset: .seconds(2), at: .microseconds(2_002_500)),
        .commandFinished(
            "seed", status: .skipped(SkipReason(failedCommand: "cache", dependency: "cache")), attempts: 0, startOffset: nil,
            at: .seconds(3)),
        .commandFinished("api", status: .succeeded, attempts: 1, startOffset: .seconds(3), at: .seconds(4)),
        .serviceEnded(
            ServiceEndedError(
                service: "api", wasReady: true, underlying: Broken(),
                restart: ServiceEndedError.Restart(number: 1, limit: 5, delay: .milliseconds(500))),
            at: .seconds(5)),
        .serviceEnded(ServiceEndedError(service: "api", wasReady: true, underlying: nil), at: .seconds(6)),
    ]

    private func printer(_ console: Console, mode: OutputMode) -> ProgressPrinter {
        let outputs = CommandOutputs()
        outputs.record("migrated 3 tables\n", for: "database")
        outputs.record("connection refused\n", for: "cache")
        return ProgressPrinter(
            console: console, style: Style(enabled: false), outputs: outputs, mode: mode, idWidth: 8, services: ["api"])
    }

    @Test(arguments: OutputMode.allCases)
    func aBatch_printsWhatTheEventsPrintOneAtATime(mode: OutputMode) {
        let single = Console.capturing()
        let one = printer(single, mode: mode)
        for event in Self.events { one.observe(event) }
        let batched = Console.capturing()
        printer(batched, mode: mode).observe(contentsOf: Self.events)

        #expect(batched.capturedOutput == single.capturedOutput)
        let lines = single.capturedOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "✓ database   1.25s")
        #expect(lines.contains("↻ cache    attempt 1 failed (exit status 3); retrying in 200ms"))
        #expect(lines.contains { $0.hasPrefix("✗ cache      2.5ms  exit status 3") })
        #expect(lines.contains("✓ api           1s  ready"))
        #expect(lines.contains("↻ api      exit status 3, restarting in 500ms (1 of 5)"))
        #expect(lines.last == "✗ api      ended by itself: exited with status 0", "a service's process returns only on exit 0")
        #expect(lines.contains("    │ migrated 3 tables") == (mode == .grouped))
    }

    /// A batch whose grouped output passes the limit is written in parts, nothing lost or repeated.
    @Test func aBatchOfLargeOutputs_printsEachOnce() {
        let outputs = CommandOutputs()
        let ids = (0..<5).map { CommandID("command-\($0)") }
        for (index, id) in ids.enumerated() {
            outputs.record(String(repeating: "\(index) line of output\n", count: 2_000), for: id)
        }
        let events = ids.map { StartupEvent.commandFinished($0, status: .succeeded, attempts: 1, startOffset: .zero, at: .seconds(1)) }
        func printer(_ console: Console) -> ProgressPrinter {
            ProgressPrinter(console: console, style: Style(enabled: false), outputs: outputs, mode: .grouped, idWidth: 9, services: [])
        }
        let single = Console.capturing()
        for event in events { printer(single).observe(event) }
        let batched = Console.capturing()
        printer(batched).observe(contentsOf: events)

        #expect(single.capturedOutput.utf8.count > 2 * ProgressPrinter.batchLimit)
        #expect(batched.capturedOutput == single.capturedOutput)
    }

    @Test func aBatchWithoutLines_writesNothing() {
        let console = Console.capturing()
        printer(console, mode: .grouped).observe(contentsOf: [.runStarted(commandCount: 1), .commandStarted("a", attempt: 1, at: .zero)])
        #expect(console.capturedOutput.isEmpty)
    }
}
