import StartupSupport
import Testing

@testable import StartupKit

/// `after` edges order and never require: a command waits for the commands it runs after to
/// end, whatever their outcome, only if they run.
@Suite struct OrderOnlyEdgeTests {
    private struct Boom: Error {}

    /// A command that runs after one that is never requested.
    private struct Feed: StartupCommand {
        static let id: CommandID = "feed"
        let after: [CommandID] = ["flags"]
        func execute(_ context: StartupContext) async throws {}
    }

    private func expectStartsAfterEnd(_ report: StartupReport, _ id: CommandID, after predecessor: CommandID) {
        guard let start = report[id]?.startOffset, let end = report[predecessor]?.endOffset else {
            Issue.record("\(id) or \(predecessor) never ran")
            return
        }
        #expect(start >= end, "\(id) started before \(predecessor) ended")
    }

    @Test func run_afterACommandThatIsAbsentOrRemoved_doesNotWait() async throws {
        var builder = StartupPlanBuilder()
        builder.add("ads") { _ in }
        builder.add("feed", after: ["ads", "never-added"]) { _ in }
        builder.remove("ads")
        let plan = try builder.build()
        #expect(plan.after(of: "feed").isEmpty)
        let report = await StartupOrchestrator(plan).run()
        #expect(report.status == .succeeded)
        #expect(report["feed"]?.status == .succeeded)
    }

    @Test func run_afterAnOnDemandCommandNobodyWants_doesNotWaitForIt() async throws {
        var builder = StartupPlanBuilder()
        builder.add("flags", options: CommandOptions(activation: .onDemand)) { _ in }
        builder.add(Feed())
        let plan = try builder.build()
        #expect(plan.after(of: "feed") == ["flags"])
        #expect(plan.dependencies(of: "feed").isEmpty)
        let report = await StartupOrchestrator(plan).run()
        #expect(report.status == .succeeded)
        #expect(report["feed"]?.status == .succeeded)
        #expect(report["flags"]?.status == .notRequested)
    }

    @Test func run_afterAFailedOrSkippedCommand_runsOnceItEnded() async throws {
        var builder = StartupPlanBuilder()
        builder.add("ads", options: CommandOptions(isOptional: true)) { _ in throw Boom() }
        builder.add("ads-banner", dependsOn: ["ads"], options: CommandOptions(isOptional: true)) { _ in }
        builder.add("feed", after: ["ads"]) { _ in }
        builder.addOnMainActor("first-screen", dependsOn: ["feed"], after: ["ads-banner"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
        #expect(report["ads"]?.status.isFailure == true)
        #expect(report["ads-banner"]?.status == .skipped(SkipReason(failedCommand: "ads", dependency: "ads")))
        #expect(report["feed"]?.status == .succeeded)
        #expect(report["first-screen"]?.status == .succeeded)
        expectStartsAfterEnd(report, "feed", after: "ads")
    }

    @Test func run_afterACommandThatRuns_startsOnlyOnceItEnded() async throws {
        var builder = StartupPlanBuilder()
        builder.add("slow") { _ in for _ in 0..<100 { await Task.yield() } }
        builder.addBlocking("keychain", after: ["slow"]) { _ in }
        builder.addGate("idle", after: ["keychain"])
        builder.add("late", dependsOn: ["idle"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
        expectStartsAfterEnd(report, "keychain", after: "slow")
        expectStartsAfterEnd(report, "idle", after: "keychain")
        #expect(report.criticalPath == ["slow", "keychain", "idle", "late"])
    }

    @Test func output_throughAnAfterEdge_isRefusedSayingItIsOnlyOrdered() async throws {
        let refusal = Locked<StartupContextError?>(nil)
        var builder = StartupPlanBuilder()
        builder.add("ads") { _ in 42 }
        builder.add("feed", after: ["ads"]) { context in
            do {
                _ = try context.output(of: "ads", as: Int.self)
            } catch let error as StartupContextError {
                refusal.withLock { $0 = error }
            }
        }
        _ = await StartupOrchestrator(try builder.build()).run()
        let error = try #require(refusal.withLock { $0 })
        #expect(error.code == .onlyOrdered)
        #expect(
            error.description
                == "\"feed\" asked for the output of \"ads\", which it only runs after (an order-only edge, which hands over "
                + "no output); make \"ads\" a dependency to read its output")
    }

    @Test func build_whenACycleGoesThroughAnAfterEdge_reportsItsPath() {
        var builder = StartupPlanBuilder()
        builder.add("a", dependsOn: ["b"]) { _ in }
        builder.add("b", after: ["a"]) { _ in }
        builder.add("c", after: ["c"]) { _ in }
        #expect(throws: PlanError(issues: [.cycle(["a", "b", "a"], commandIndex: 0), .cycle(["c", "c"], commandIndex: 2)])) {
            try builder.build()
        }
    }

    @Test func build_keepsTheAfterEdgesOfTheFirstCommand() throws {
        var builder = StartupPlanBuilder()
        builder.add("feed", after: ["ads"]) { _ in }
        builder.add("ads") { _ in }
        builder.add("screen", after: ["feed"]) { _ in }
        let plan = try builder.build()
        #expect(plan.after(of: "feed") == ["ads"])
        #expect(plan.after(of: "screen") == ["feed"])
        #expect(plan.topologicalOrder == ["ads", "feed", "screen"])

        var cyclic = StartupPlanBuilder()
        cyclic.add("a", after: ["b"]) { _ in }
        cyclic.add("b", dependsOn: ["a"]) { _ in }
        #expect(throws: PlanError(issues: [.cycle(["a", "b", "a"], commandIndex: 0)])) { try cyclic.build() }
    }

    @Test func timing_followsAfterEdges() throws {
        var builder = StartupPlanBuilder()
        builder.add("ads", options: CommandOptions(estimate: .milliseconds(50))) { _ in }
        builder.add("feed", after: ["ads"], options: CommandOptions(estimate: .milliseconds(10))) { _ in }
        builder.add("config", options: CommandOptions(estimate: .milliseconds(30))) { _ in }
        let plan = try builder.build()
        #expect(plan.timing().criticalPath == ["ads", "feed"])
        #expect(plan.predictedWallTime() == .milliseconds(60))
        #expect(plan.level(of: "feed") == 1)
    }
}
