import StartupKit
import StartupKitTesting
import Testing

/// The "Testing a start-up" article's examples, compiled and run as written, and run 50 times in
/// a row, none failing or hanging. The limit only guards against a hang: under the thread
/// sanitizer, beside the whole suite on two cores, the 50 rounds took 47-63 s.
@Suite(.timeLimit(.minutes(3))) struct TestingArticleTests {
    @Test func slowFeatureFlags_timeOut_andTheLaunchGoesOn() async throws {
        let clock = ManualClock()
        var builder = StartupPlanBuilder()
        builder.add(
            "feature-flags",
            options: CommandOptions(priority: .normal, isOptional: true, timeout: .milliseconds(300))
        ) { _ in
            try await clock.sleep(for: .seconds(2))  // a slow network
        }
        builder.add("first-screen") { _ in }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()

        await clock.waitUntilCommandsSleep()
        clock.advance(by: .milliseconds(300))
        let report = await run.report()

        #expect(report["feature-flags"]?.status == .timedOut(after: .milliseconds(300)))
        #expect(report.status == .succeeded)  // the command is optional
        #expect(report.wallTime == .milliseconds(300))
    }

    struct Offline: Error {}

    @Test func aSessionThatFailsTwice_succeedsOnItsThirdAttempt() async throws {
        let clock = ManualClock()
        var builder = StartupPlanBuilder()
        builder.add("session", options: CommandOptions(retry: .retry(times: 2, initialDelay: .milliseconds(100)))) {
            context in
            if context.attempt < 3 { throw Offline() }
        }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()

        await clock.waitUntilCommandsSleep()
        clock.advance(by: .milliseconds(100))  // the first retry's delay
        await clock.waitUntilCommandsSleep()
        clock.advance(by: .milliseconds(200))  // the second's, doubled
        let report = await run.report()

        #expect(report["session"]?.status == .succeeded)
        #expect(report["session"]?.attempts == 3)
        #expect(report.wallTime == .milliseconds(300))
    }

    @Test func aWaitForTheFirstScreen_runsOut_andSaysWhatHoldsItUp() async throws {
        let clock = ManualClock()
        var builder = StartupPlanBuilder()
        builder.add("database") { _ in try await clock.sleep(for: .seconds(1)) }
        builder.add("first-screen", dependsOn: ["database"]) { _ in }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        let waiting = Task { try await run.wait(for: ["first-screen"], timeout: .milliseconds(400)) }

        await clock.sleepers(atLeast: 2)  // the database and the wait's limit
        clock.advance(by: .milliseconds(400))
        let error = await #expect(throws: StartupWaitError.self) { try await waiting.value }
        #expect(error?.description.contains("database") == true)

        run.cancel()  // needs no time: the database's sleep honours cancellation
        let report = await run.report()
        #expect(report["database"]?.status == .cancelled)
    }

    @Test func prefetching_waitsForTheFirstFrame() async throws {
        let clock = ManualClock()
        var builder = StartupPlanBuilder()
        builder.add("database") { _ in try await clock.sleep(for: .milliseconds(50)) }
        builder.addGate("first-frame", dependsOn: ["database"])
        builder.add("prefetch", dependsOn: ["first-frame"]) { _ in }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()

        await clock.waitUntilCommandsSleep()
        clock.advance(by: .milliseconds(50))
        try await run.wait(for: ["database"])
        clock.advance(by: .milliseconds(20))  // the first frame takes 20 ms
        run.open("first-frame")
        let report = await run.report()

        #expect(report["prefetch"]?.startOffset == .milliseconds(70))
    }

    @Test func commandOptions_inTheArticlesOrder() {
        let options = CommandOptions(
            priority: .high, isOptional: true, timeout: .seconds(2), retry: .retry(times: 2),
            estimate: .milliseconds(40), activation: .eager)
        #expect(options.isOptional && options.timeout == .seconds(2) && options.priority == .high)
    }

    @Test func theExamples_run50TimesInARow_withoutAFailureOrAHang() async throws {
        for _ in 0..<50 {
            try await slowFeatureFlags_timeOut_andTheLaunchGoesOn()
            try await aSessionThatFailsTwice_succeedsOnItsThirdAttempt()
            try await aWaitForTheFirstScreen_runsOut_andSaysWhatHoldsItUp()
            try await prefetching_waitsForTheFirstFrame()
        }
    }
}
