import StartupKitTesting
import StartupSupport
import StartupTestSupport
import Testing

@testable import StartupKit

/// The manual clock drives a run without counting sleepers: it waits until the commands sleep,
/// its advance fires every deadline it passes in order, and a cancelled run needs no time.
/// The limit only guards against a hang: under the thread sanitizer, beside the whole suite on two
/// cores, these tests took 50-63 s.
@Suite(.timeLimit(.minutes(3))) struct ManualClockTests {
    /// What happened, in one order, from any task.
    private final class Log: Sendable {
        private let entries = Locked<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func waitUntilCommandsSleep_doesNotCountTheRunsTimers() async throws {
        let clock = ManualClock()
        let log = Log()
        let started = Gate()
        let release = Gate()
        var builder = StartupPlanBuilder()
        builder.add("slow", options: .init(timeout: .seconds(10))) { _ in
            started.open()
            await release.wait()
            log.append("command sleeps")
            try await clock.sleep(for: .milliseconds(100))
        }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        let waiter = Task {
            await clock.waitUntilCommandsSleep()
            log.append("waiter returned")
        }
        await started.wait()
        await clock.sleepers(atLeast: 1)  // the timeout's timer, which is not the command
        release.open()
        await waiter.value
        clock.advance(by: .milliseconds(100))
        let report = await run.report()

        #expect(log.all == ["command sleeps", "waiter returned"])
        #expect(report["slow"]?.status == .succeeded)
        #expect(report.wallTime == .milliseconds(100))
    }

    /// The article's timeout example, its task cancelled as it runs, 90 times: every time, its
    /// report comes. A timeout was armed after its command's task started, and in about one run in
    /// fifteen the advance then passed it by and the report never came (the run's own task is not
    /// the test's, and does not inherit the cancellation). Each run is given 30 s of real time, only
    /// so that a regression fails rather than hangs; a run that passes takes milliseconds.
    @Test func theTimeoutExample_cancelledAsItRuns_alwaysReports() async throws {
        var hung = 0
        for delay in Array(repeating: [0, 1, 2], count: 30).flatMap({ $0 }) {
            let reported = Locked(false)
            let example = Task {
                _ = try? await TestingArticleTests().slowFeatureFlags_timeOut_andTheLaunchGoesOn()
                reported.withLock { $0 = true }
            }
            if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
            example.cancel()
            for _ in 0..<300 where !reported.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(100)) }
            if !reported.withLock({ $0 }) { hung += 1 }
        }
        #expect(hung == 0)
    }

    @Test func waitUntilCommandsSleep_followsAChainOfSleepsAndRetries_toTheReport() async throws {
        struct Flaky: Error {}
        let clock = ManualClock()
        let failures = Locked(0)
        var builder = StartupPlanBuilder()
        builder.add("config", options: .init(timeout: .seconds(1))) { _ in try await clock.sleep(for: .milliseconds(30)) }
        builder.add("network", dependsOn: ["config"], options: .init(retry: .retry(times: 2, initialDelay: .milliseconds(50)))) { _ in
            try await clock.sleep(for: .milliseconds(10))
            if failures.withLock({ count in
                count += 1
                return count < 3
            }) {
                throw Flaky()
            }
        }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        // config 30, network 10, delay 50, network 10, delay 100, network 10: 210 ms.
        for step in [30, 10, 50, 10, 100, 10] {
            await clock.waitUntilCommandsSleep()
            clock.advance(by: .milliseconds(step))
        }
        let report = await run.report()

        #expect(report["network"]?.status == .succeeded)
        #expect(report["network"]?.attempts == 3)
        #expect(report.wallTime == .milliseconds(210))
    }

    @Test func advance_pastATimeoutAndItsGrace_firesBoth_inOrder() async throws {
        let clock = ManualClock()
        let stubborn = Gate()
        var builder = StartupPlanBuilder()
        builder.add("stubborn", options: .init(timeout: .milliseconds(200))) { _ in await stubborn.wait() }
        let orchestrator = StartupOrchestrator(try builder.build(), options: .init(cancellationGrace: .milliseconds(50)), clock: clock)
        let run = orchestrator.start()
        await clock.sleepers(atLeast: 1)  // the timeout: the command waits for the gate, not the clock
        clock.advance(by: .milliseconds(300))
        let report = await run.report()
        stubborn.open()

        #expect(report["stubborn"]?.isAbandoned == true, "one advance fired the timeout, then the grace it armed")
    }

    @Test(arguments: 0..<4) func cancelThenReport_needsNoTime_whenTheCommandsHonourCancellation(shape: Int) async throws {
        struct Flaky: Error {}
        let clock = ManualClock()
        var builder = StartupPlanBuilder()
        switch shape {
        case 0: builder.add("timed", options: .init(timeout: .seconds(1))) { _ in try await clock.sleep(for: .seconds(5)) }
        case 1: builder.add("retrying", options: .init(retry: .retry(times: 3, initialDelay: .seconds(1)))) { _ in throw Flaky() }
        case 2: builder.add("sleeping") { _ in try await clock.sleep(for: .seconds(5)) }
        default:
            builder.addGate("first-frame")
            builder.add("after-frame", dependsOn: ["first-frame"]) { _ in }
        }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        let ids = ["timed", "retrying", "sleeping", "after-frame"][shape]
        let waiting = Task { try await run.wait(for: [CommandID(ids)], timeout: .seconds(30)) }
        await clock.waitUntilCommandsSleep()
        run.cancel()
        let report = await run.report()

        #expect(report.commands.allSatisfy { !$0.status.isSuccess })
        #expect(report.wallTime == .zero)
        await #expect(throws: StartupWaitError.self) { try await waiting.value }
    }
}
