import StartupKit
import StartupKitTesting
import StartupSupport
import StartupTestSupport
import Testing

/// Holding a run: waiting for part of it, outputs, on-demand commands, gates, cancelling a wait,
/// the report and the events. No sleeps: commands block on gates the test opens.
@Suite(.timeLimit(.minutes(1))) struct StartupRunTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    @Test func wait_returnsOnceTheAwaitedCommandsSucceed_whileOthersStillRun() async throws {
        let slow = Gate()
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in 7 }
        builder.add("first-screen", dependsOn: ["config"]) { context in try context.output(of: "config", as: Int.self) * 6 }
        builder.add("analytics") { _ in await slow.wait() }
        let run = StartupOrchestrator(try builder.build()).start()

        try await run.wait(for: ["first-screen"], timeout: .seconds(3_600))
        #expect(try await run.output(of: "first-screen", as: Int.self) == 42)
        slow.open()
        let report = await run.report()
        #expect(report.status == .succeeded)
        #expect(report["analytics"]?.status == .succeeded)
    }

    @Test func wait_throwsAtOnce_whenAnAwaitedCommandFails_orIsSkipped() async throws {
        let never = Gate()
        var builder = StartupPlanBuilder()
        builder.add("database") { _ in throw Boom() }
        builder.add("first-screen", dependsOn: ["database"]) { _ in }
        builder.add("other") { _ in await never.wait() }
        let run = StartupOrchestrator(try builder.build()).start()

        let error = try #require(
            await #expect(throws: StartupWaitError.self) {
                try await run.wait(for: ["first-screen"], timeout: .seconds(3_600))
            })
        #expect(error.description == #""first-screen" did not succeed: dependency "database" did not succeed"#)
        await #expect(throws: StartupWaitError.self) { try await run.wait(for: ["database"]) }
        never.open()
        #expect(await run.report().status == .failed)
    }

    @Test func wait_forAnUnknownID_throwsWithTheClosestID() async throws {
        var builder = StartupPlanBuilder()
        builder.add("configuration") { _ in }
        let run = StartupOrchestrator(try builder.build()).start()
        let error = try #require(await #expect(throws: StartupWaitError.self) { try await run.wait(for: ["confg"]) })
        #expect(error.description == #"the plan has no command "confg"; did you mean "configuration"?"#)
    }

    @Test func cancellingAWaitingTask_endsThatWait_notTheRun() async throws {
        let release = Gate()
        var builder = StartupPlanBuilder()
        builder.add("slow") { _ in await release.wait() }
        let run = StartupOrchestrator(try builder.build()).start()
        let waiter = Task { try await run.wait(for: ["slow"]) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        release.open()
        try await run.wait(for: ["slow"])
        #expect(await run.report()["slow"]?.status == .succeeded)
    }

    @Test func onDemandCommands_runOnlyWhenRequested_withWhatTheyNeed() async throws {
        let counter = Counter()
        var builder = StartupPlanBuilder()
        builder.add("base", options: .init(activation: .onDemand)) { _ in counter.increment("base") }
        builder.add("lazy", dependsOn: ["base"], options: .init(activation: .onDemand)) { _ in
            counter.increment("lazy")
            return "value"
        }
        builder.add("never", options: .init(activation: .onDemand)) { _ in counter.increment("never") }
        builder.add("eager") { _ in counter.increment("eager") }
        let run = StartupOrchestrator(try builder.build()).start()

        let before = await run.report()
        #expect(before["lazy"]?.status == .notRequested && before["base"]?.status == .notRequested)
        #expect(before["eager"]?.status == .succeeded && before.status == .succeeded)

        #expect(try await run.output(of: "lazy", as: String.self) == "value")
        let after = await run.report()
        #expect(after["lazy"]?.status == .succeeded && after["base"]?.status == .succeeded)
        #expect(after["never"]?.status == .notRequested)
        #expect(counter.counts == ["base": 1, "lazy": 1, "eager": 1])
    }

    @Test func anOnDemandCommandThatAnEagerOneNeeds_isEager() async throws {
        var builder = StartupPlanBuilder()
        builder.add("lazy", options: .init(activation: .onDemand)) { _ in }
        builder.add("eager", dependsOn: ["lazy"]) { _ in }
        let plan = try builder.build()
        #expect(plan.warnings == [.onDemandNeededByEager("lazy", eager: "eager")])
        let report = await StartupOrchestrator(plan).run()
        #expect(report["lazy"]?.status == .succeeded)
    }

    @Test func gates_holdTheirDependents_untilOpened_andRecordWhenTheyOpened() async throws {
        let clock = ManualClock()
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.add("first-screen") { _ in log.append("first-screen") }
        builder.addGate("first-frame", dependsOn: ["first-screen"])
        builder.add("idle-work", dependsOn: ["first-frame"]) { _ in log.append("idle-work") }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()

        try await run.wait(for: ["first-screen"])
        clock.advance(by: .milliseconds(30))
        log.append("open")
        run.open("first-frame")
        let report = await run.report()
        #expect(log.entries == ["first-screen", "open", "idle-work"])
        #expect(report["first-frame"]?.endOffset == .milliseconds(30))
        #expect(report["first-frame"]?.status == .succeeded)
    }

    @Test func aGateOpenedEarly_succeedsAsSoonAsItsDependenciesDo() async throws {
        let release = Gate()
        var builder = StartupPlanBuilder()
        builder.add("first-screen") { _ in await release.wait() }
        builder.addGate("first-frame", dependsOn: ["first-screen"])
        builder.add("idle-work", dependsOn: ["first-frame"]) { _ in }
        let run = StartupOrchestrator(try builder.build()).start()
        run.open("first-frame")
        run.open("first-frame")
        release.open()
        #expect(await run.report().status == .succeeded)
    }

    @Test func run_opensGatesAtOnce() async throws {
        var builder = StartupPlanBuilder()
        builder.addGate("first-frame")
        builder.add("idle-work", dependsOn: ["first-frame"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded && report["idle-work"]?.status == .succeeded)
    }

    @Test func cancel_endsTheRun_andLaterRequestsEndCancelled() async throws {
        var builder = StartupPlanBuilder()
        builder.add("hangs") { _ in try await hangUntilCancelled() }
        builder.add("lazy", options: .init(activation: .onDemand)) { _ in }
        let run = StartupOrchestrator(try builder.build()).start()
        run.cancel()
        let report = await run.report()
        #expect(report.status == .cancelled && report["hangs"]?.status == .cancelled)
        let error = try #require(await #expect(throws: StartupWaitError.self) { try await run.wait(for: ["lazy"]) })
        #expect(error.reason == .commandDidNotSucceed("lazy", .cancelled))
    }

    @Test func events_streamTheRunFromNowOn_andEndWithIt() async throws {
        let release = Gate()
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in await release.wait() }
        builder.add("b", dependsOn: ["a"]) { _ in }
        var run: StartupRun? = StartupOrchestrator(try builder.build()).start()
        let events = try #require(run).events
        release.open()
        _ = await run?.report()
        run = nil  // The handle is gone: the run is over, and the stream ends.
        var names: [String] = []
        for await event in events {
            if case .commandFinished(let id, _, _, _, _) = event { names.append(id.rawValue) }
            if case .runFinished = event { names.append("end") }
        }
        #expect(names == ["a", "b", "end"])
    }
}

/// Counts calls by name, from any task.
final class Counter: Sendable {
    private let state = Locked([String: Int]())
    func increment(_ name: String) { state.withLock { $0[name, default: 0] += 1 } }
    var counts: [String: Int] { state.withLock { $0 } }
}

/// An ordered log of names, from any task.
final class Log: Sendable {
    private let state = Locked([String]())
    func append(_ name: String) { state.withLock { $0.append(name) } }
    var entries: [String] { state.withLock { $0 } }
}
