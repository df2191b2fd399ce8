import StartupKit
import StartupKitTesting
import StartupTestSupport
import Testing

/// A timeout bounds start-up even when the command ignores cancellation: after the grace the
/// attempt is abandoned and the run goes on. The clock is manual: no real time passes.
@Suite(.timeLimit(.minutes(1))) struct AbandonedAttemptTests {
    @Test func anAttemptThatIgnoresCancellation_isAbandonedAfterTheGrace_andItsDependentsSkipped() async throws {
        let clock = ManualClock()
        let stubborn = Gate()
        var builder = StartupPlanBuilder()
        builder.add("stubborn", options: .init(timeout: .milliseconds(200))) { _ in await stubborn.wait() }
        builder.add("dependent", dependsOn: ["stubborn"]) { _ in }
        builder.add("independent") { _ in }
        let orchestrator = StartupOrchestrator(try builder.build(), options: .init(cancellationGrace: .milliseconds(50)), clock: clock)
        let reporting = Task { await orchestrator.run() }

        await clock.sleepers(atLeast: 1)  // the timeout
        clock.advance(by: .milliseconds(200))
        await clock.sleepers(atLeast: 1)  // the grace
        clock.advance(by: .milliseconds(50))
        let report = await reporting.value

        #expect(report.wallTime == .milliseconds(250), "the report waits for the timeout and the grace, no longer")
        #expect(report["stubborn"]?.status == .timedOut(after: .milliseconds(200)))
        #expect(report["stubborn"]?.isAbandoned == true)
        #expect(report["dependent"]?.status == .skipped(SkipReason(failedCommand: "stubborn", dependency: "stubborn")))
        #expect(report["independent"]?.status == .succeeded)
        stubborn.open()
    }

    @Test func anAttemptThatReturnsWithinTheGrace_isTimedOutButNotAbandoned() async throws {
        let clock = ManualClock()
        var builder = StartupPlanBuilder()
        builder.add("polite", options: .init(timeout: .milliseconds(200))) { _ in try await hangUntilCancelled() }
        let orchestrator = StartupOrchestrator(try builder.build(), clock: clock)
        let reporting = Task { await orchestrator.run() }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(200))
        let report = await reporting.value
        #expect(report["polite"]?.status == .timedOut(after: .milliseconds(200)))
        #expect(report["polite"]?.isAbandoned == false)
        #expect(report.wallTime == .milliseconds(200))
    }

    @Test func aStopWhileATimedOutAttemptIgnoresCancellation_isBoundedByTheGraceToo() async throws {
        struct Boom: Error {}
        let clock = ManualClock()
        let stubborn = Gate()
        var builder = StartupPlanBuilder()
        builder.add("stubborn", options: .init(timeout: .milliseconds(100))) { _ in await stubborn.wait() }
        builder.add("failing") { _ in
            try await clock.sleep(for: .milliseconds(150))
            throw Boom()
        }
        let orchestrator = StartupOrchestrator(
            try builder.build(), options: .init(failurePolicy: .failFast, cancellationGrace: .seconds(1)),
            clock: clock)
        let reporting = Task { await orchestrator.run() }
        await clock.sleepers(atLeast: 2)  // the timeout and the failing command
        clock.advance(by: .milliseconds(100))
        await clock.sleepers(atLeast: 2)  // the grace and the failing command
        clock.advance(by: .milliseconds(50))  // it fails: fail-fast stops the run during the grace
        await clock.sleepers(atLeast: 2)  // both graces
        clock.advance(by: .seconds(1))
        let report = await reporting.value

        #expect(report.status == .failed)
        #expect(report["stubborn"]?.status == .timedOut(after: .milliseconds(100)))
        #expect(report["stubborn"]?.isAbandoned == true)
        stubborn.open()
    }
}
