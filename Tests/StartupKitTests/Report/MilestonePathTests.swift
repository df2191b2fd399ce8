import StartupKit
import StartupKitTesting
import Testing

/// The critical path and slack to a milestone, by the measured times a report holds: the path
/// that decided when the first screen came, which is not the whole run's.
@Suite struct MilestonePathTests {
    struct Boom: Error {}

    /// A command that ran from `start` to `end` milliseconds.
    private func ran(_ id: CommandID, _ start: Int, _ end: Int, after dependencies: [CommandID] = []) -> CommandReport {
        CommandReport(
            id: id, status: .succeeded, startOffset: .milliseconds(start), endOffset: .milliseconds(end), attempts: 1,
            dependencies: dependencies)
    }

    /// `config -> auth -> screen` bounds the first screen; `flags` and `logging` had slack before it;
    /// a long optional `retry-upload` after `config` ends the whole run; `analytics` never touches it.
    private var launch: StartupReport {
        StartupReport(
            status: .succeeded,
            commands: [
                ran("logging", 0, 5),
                ran("config", 0, 10),
                ran("analytics", 0, 60),
                ran("flags", 10, 25, after: ["config"]),
                ran("auth", 10, 30, after: ["config"]),
                ran("screen", 30, 40, after: ["auth", "flags", "logging"]),
                ran("retry-upload", 10, 100, after: ["config"]),
            ],
            wallTime: .milliseconds(100), criticalPath: ["config", "retry-upload"], criticalPathDuration: .milliseconds(100))
    }

    @Test func criticalPathToAMilestone_followsWhatItWaitedFor_notTheWholeRunsPath() {
        let report = launch
        #expect(report.criticalPath(to: "screen") == ["config", "auth", "screen"])
        #expect(report.criticalPath(to: "retry-upload") == ["config", "retry-upload"])
        #expect(report.criticalPath(to: "analytics") == ["analytics"])
    }

    @Test func slackToAMilestone_coversWhatItWaitedFor_andNothingElse() {
        #expect(
            launch.slack(to: "screen") == [
                "config": .zero, "auth": .zero, "screen": .zero, "flags": .milliseconds(5), "logging": .milliseconds(25),
            ])
        #expect(launch.slack(to: "config") == ["config": .zero])
    }

    @Test func aMilestoneThatNeverStarted_hasThePathUpToTheLastCommandThatDid() {
        let report = StartupReport(
            status: .failed,
            commands: [
                ran("config", 0, 10),
                CommandReport(
                    id: "database", status: .failed(Boom()), startOffset: .milliseconds(10), endOffset: .milliseconds(12),
                    attempts: 1, dependencies: ["config"]),
                CommandReport(
                    id: "screen", status: .skipped(SkipReason(failedCommand: "database", dependency: "database")),
                    dependencies: ["database"]),
            ],
            wallTime: .milliseconds(12), criticalPath: ["config", "database"], criticalPathDuration: .milliseconds(12))
        #expect(report.criticalPath(to: "screen") == ["config", "database"])
        #expect(report.slack(to: "screen").keys.sorted() == ["config", "database", "screen"])
    }

    @Test func aRunsCriticalPath_isThePathToItsLastCommand() async throws {
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in }
        builder.add("cache", dependsOn: ["config"]) { _ in }
        builder.add("auth", dependsOn: ["config"]) { _ in }
        builder.add("screen", dependsOn: ["auth", "cache"]) { _ in }
        builder.add("prefetch", dependsOn: ["screen"]) { _ in }
        builder.add("analytics") { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        let last = try #require(report.criticalPath.last)
        #expect(report.criticalPath(to: last) == report.criticalPath)
        for (id, slack) in report.slack(to: last) {
            #expect(slack == report[id]?.slack, "\(id)")
        }
    }

    /// A command that ran from `start` to `end` milliseconds after `predecessors` (order-only edges).
    private func ran(_ id: CommandID, _ start: Int, _ end: Int, orderedAfter predecessors: [CommandID]) -> CommandReport {
        CommandReport(
            id: id, status: .succeeded, startOffset: .milliseconds(start), endOffset: .milliseconds(end), attempts: 1,
            after: predecessors)
    }

    @Test func criticalPathToAMilestone_followsAnAfterEdgeItWaitedOn() {
        let report = StartupReport(
            status: .succeeded,
            commands: [
                ran("config", 0, 10),
                ran("ads", 0, 50),
                ran("feed", 50, 60, orderedAfter: ["ads"]),
                ran("screen", 60, 70, after: ["config", "feed"]),
            ],
            wallTime: .milliseconds(70), criticalPath: ["ads", "feed", "screen"], criticalPathDuration: .milliseconds(70))
        #expect(report.criticalPath(to: "screen") == ["ads", "feed", "screen"])
        #expect(report.criticalPathDuration(to: "screen") == .milliseconds(70))
        #expect(report.slack(to: "screen") == ["ads": .zero, "feed": .zero, "screen": .zero, "config": .milliseconds(50)])
    }

    @Test func anAfterEdgeToACommandThatDidNotRun_orRanLater_isNoEdge() {
        let report = StartupReport(
            status: .succeeded,
            commands: [
                ran("config", 0, 10),
                CommandReport(id: "search-index", status: .notRequested),
                // Ended after "screen" started: "screen" did not wait for it (it was requested later, say).
                ran("late", 5, 40),
                CommandReport(
                    id: "screen", status: .succeeded, startOffset: .milliseconds(10), endOffset: .milliseconds(20), attempts: 1,
                    dependencies: ["config"], after: ["search-index", "late"]),
            ],
            wallTime: .milliseconds(40), criticalPath: ["late"], criticalPathDuration: .milliseconds(35))
        #expect(report.criticalPath(to: "screen") == ["config", "screen"])
        #expect(report.slack(to: "screen").keys.sorted() == ["config", "screen"])
    }

    @Test func aRunsReport_carriesItsAfterEdges_andTheMilestonePathFollowsThem() async throws {
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in }
        builder.add("ads") { _ in }
        builder.add("feed", after: ["ads", "absent"]) { _ in }
        builder.add("screen", dependsOn: ["config", "feed"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report["feed"]?.after == ["ads", "absent"])
        #expect(report["screen"]?.after == [])
        // "feed" started once "ads" ended, so "ads" is among what "screen" waited for.
        #expect(report.slack(to: "screen")["ads"] != nil)
    }

    @Test func aRunsCriticalPath_passesOverAnAfterEdgeToACommandThatDidNotRun() async throws {
        let clock = ManualClock()
        var builder = StartupPlanBuilder()
        builder.add("database") { _ in try await clock.sleep(for: .milliseconds(50)) }
        builder.add("search-index", dependsOn: ["database"], options: CommandOptions(activation: .onDemand)) { _ in }
        builder.add("feed", after: ["search-index"]) { _ in try await clock.sleep(for: .milliseconds(10)) }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        await clock.waitUntilCommandsSleep()
        clock.advance(by: .milliseconds(10))
        await clock.waitUntilCommandsSleep()
        clock.advance(by: .milliseconds(40))
        let report = await run.report()
        #expect(report["search-index"]?.status == .notRequested)
        // "feed" started at once: it did not wait for "database" through the on-demand command nobody wanted.
        #expect(report["feed"]?.startOffset == .zero)
        #expect(report.criticalPath == ["database"])
        #expect(report["feed"]?.slack == .milliseconds(40))
        #expect(report.criticalPath(to: "feed") == ["feed"])
    }
}
