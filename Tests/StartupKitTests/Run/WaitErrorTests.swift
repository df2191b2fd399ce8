import StartupKit
import StartupKitTesting
import StartupTestSupport
import Testing

/// A wait that runs out of time says what holds each awaited command up; the clock is manual,
/// so the times in the text are exact.
@Suite(.timeLimit(.minutes(1))) struct WaitErrorTests {
    @Test func timedOutWait_namesTheRunningCommandAndTheChainThatNeedsIt() async throws {
        let clock = ManualClock()
        let release = Gate()
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in }
        builder.add("database") { _ in await release.wait() }
        builder.add("auth-session", dependsOn: ["config", "database"]) { _ in }
        builder.add("first-screen", dependsOn: ["auth-session"]) { _ in }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        try await run.wait(for: ["config"])
        clock.advance(by: .milliseconds(20))

        let waiting = Task { try await run.wait(for: ["first-screen"], timeout: .milliseconds(400)) }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(400))
        let error = try #require(await #expect(throws: StartupWaitError.self) { try await waiting.value })
        #expect(
            error.description
                == #""first-screen" not done after 400ms: waiting for "database" (running for 420ms), which "first-screen" needs through "auth-session""#
        )
        release.open()
        #expect(await run.report().status == .succeeded)
    }

    @Test func timedOutWait_namesAGateNotOpened_andACommandWaitingForASlot() async throws {
        let clock = ManualClock()
        let release = Gate()
        let busyStarted = Gate()
        var builder = StartupPlanBuilder()
        builder.add("busy") { _ in
            busyStarted.open()
            await release.wait()
        }
        builder.add("queued") { _ in }
        builder.addGate("first-frame")
        builder.add("idle-work", dependsOn: ["first-frame"]) { _ in }
        let run = StartupOrchestrator(try builder.build(), options: .init(maxConcurrency: 1), clock: clock).start()
        // The slot is taken before the wait, which would otherwise put "queued" first.
        await busyStarted.wait()

        let waiting = Task { try await run.wait(for: ["queued", "idle-work"], timeout: .milliseconds(50)) }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(50))
        let error = try #require(await #expect(throws: StartupWaitError.self) { try await waiting.value })
        #expect(
            error.description == #""queued" not done after 50ms: ready, waiting for a free slot; "#
                + #""idle-work" not done after 50ms: waiting for "first-frame" (a gate not opened yet)"#)
        release.open()
        run.open("first-frame")
        #expect(await run.report().status == .succeeded)
    }

    @Test func timedOutWait_namesTheCommandAnAfterEdgeWaitsFor() async throws {
        let clock = ManualClock()
        let release = Gate()
        var builder = StartupPlanBuilder()
        builder.add("ads") { _ in await release.wait() }
        builder.add("feed", after: ["ads"]) { _ in }
        builder.add("first-screen", dependsOn: ["feed"]) { _ in }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()

        let waiting = Task { try await run.wait(for: ["first-screen"], timeout: .milliseconds(100)) }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(100))
        let error = try #require(await #expect(throws: StartupWaitError.self) { try await waiting.value })
        #expect(
            error.description
                == #""first-screen" not done after 100ms: waiting for "ads" (running for 100ms), which "first-screen" needs through "feed""#
        )
        release.open()
        #expect(await run.report().status == .succeeded)
    }

    @Test func timedOutWait_passesOverAnAfterEdgeToAnOnDemandCommandNobodyWants() async throws {
        let clock = ManualClock()
        let release = Gate()
        var builder = StartupPlanBuilder()
        builder.add("search-index", options: CommandOptions(activation: .onDemand)) { _ in }
        builder.add("database") { _ in await release.wait() }
        builder.add("feed", dependsOn: ["database"], after: ["search-index"]) { _ in }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()

        let waiting = Task { try await run.wait(for: ["feed"], timeout: .milliseconds(100)) }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(100))
        let error = try #require(await #expect(throws: StartupWaitError.self) { try await waiting.value })
        #expect(error.description == #""feed" not done after 100ms: waiting for "database" (running for 100ms)"#)
        release.open()
        #expect(await run.report().status == .succeeded)
    }
}
