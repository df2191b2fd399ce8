import Foundation
import StartupKit
import StartupKitTesting
import StartupReporting
import Testing

/// A profile learned from past launches: recorded from a run's report, saved and loaded, and
/// applied to the next plan, whose critical-path-first order then follows the learned durations.
@Suite struct LaunchProfileTests {
    /// One slot and no declared estimates but `declared`'s, in an adversarial order: a chain of
    /// three short commands goes first by count, while `long`, declared last, is the real
    /// critical path; `declared` says 1ms and takes 50ms.
    private let launchDurations: KeyValuePairs<CommandID, Int> = ["x1": 5, "x2": 5, "x3": 5, "long": 100, "declared": 50]

    private func launchPlan(clock: ManualClock) throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        var previous: [CommandID] = []
        for (id, milliseconds) in launchDurations {
            let options = CommandOptions(estimate: id == "declared" ? .milliseconds(1) : nil)
            let dependencies = id.rawValue.hasPrefix("x") ? previous : []
            // One command runs at a time, so each takes exactly its time on the manual clock.
            builder.add(id, dependsOn: dependencies, options: options) { _ in clock.advance(by: .milliseconds(milliseconds)) }
            if id.rawValue.hasPrefix("x") { previous = [id] }
        }
        return try builder.build()
    }

    private func run(_ plan: StartupPlan, clock: ManualClock) async -> StartupReport {
        await StartupOrchestrator(plan, options: .init(maxConcurrency: 1), clock: clock).run()
    }

    private func starts(_ report: StartupReport) -> [CommandID] {
        report.commandsByStart.map(\.id)
    }

    @Test func aProfileRecordedFromARun_reordersTheNextRun_criticalPathFirstByLearnedDurations() async throws {
        let clock = ManualClock()
        let plan = try launchPlan(clock: clock)
        let first = await run(plan, clock: clock)
        #expect(starts(first) == ["declared", "x1", "x2", "x3", "long"])
        #expect(first["long"]?.estimate == nil)

        var profile = LaunchProfile()
        profile.record(first)
        let second = await run(profile.applied(to: plan), clock: clock)
        #expect(starts(second) == ["long", "x1", "x2", "x3", "declared"], "a declared estimate wins by default")
        #expect(second["long"]?.estimate == .learned(.milliseconds(100), launches: 1))
        #expect(second["declared"]?.estimate == .declared(.milliseconds(1)))
        #expect(second.wallTime == first.wallTime, "one slot: the same work, only the order moved")

        profile.record(second)
        profile.preferMeasured = true
        let third = await run(profile.applied(to: plan), clock: clock)
        #expect(starts(third) == ["long", "declared", "x1", "x2", "x3"])
        #expect(third["declared"]?.estimate == .learned(.milliseconds(50), launches: 2))
        #expect(third["declared"]?.estimate?.description == "50ms, learned from 2 launches")
        let saved = SavedRun(report: third)
        #expect(try SavedRun.decode(Array(saved.json().text().utf8)) == saved, "the saved JSON keeps where estimates came from")
    }

    @Test func theDocCommentsExample_runsAsWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UInt64.random(in: 0 ... .max))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let profilePath = folder.appendingPathComponent("launch-profile.json").path
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in }
        let plan = try builder.build()
        let options = StartupOrchestrator.Options(maxConcurrency: 2)

        // As LaunchProfile's doc comment writes it:
        var profile = try LaunchProfile.load(path: profilePath)  // a missing file is an empty profile
        let report = await StartupOrchestrator(profile.applied(to: plan), options: options).run()
        profile.record(report)
        try profile.save(to: profilePath)  // atomically

        #expect(try LaunchProfile.load(path: profilePath).durations(of: "config").count == 1)
    }

    @Test func record_keepsTheLastLaunchesOfSucceededCommands_andEstimatesTheirMedian() {
        var profile = LaunchProfile(launchesKept: 3)
        for milliseconds in [90, 10, 30, 20] {
            profile.record(
                StartupReport(
                    status: .failed,
                    commands: [
                        CommandReport(id: "db", status: .succeeded, startOffset: .zero, endOffset: .milliseconds(milliseconds)),
                        CommandReport(id: "bad", status: .failed(RecordedError(message: "no")), startOffset: .zero, endOffset: .seconds(9)),
                        CommandReport(id: "later", status: .notRequested),
                    ],
                    wallTime: .milliseconds(milliseconds), criticalPath: ["db"], criticalPathDuration: .milliseconds(milliseconds)))
        }
        #expect(profile.durations(of: "db") == [.milliseconds(10), .milliseconds(30), .milliseconds(20)])
        #expect(profile.estimate(for: "db") == .milliseconds(20))
        #expect(profile.ids == ["db"])
        #expect(profile.estimate(for: "bad") == nil && profile.estimate(for: "later") == nil)
        profile.launchesKept = 2
        #expect(profile.estimate(for: "db") == .milliseconds(25), "of an even number, the mean of the middle two")
    }

    @Test func savedAndLoaded_isTheSameProfile_andAMissingFileIsAnEmptyOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UInt64.random(in: 0 ... .max))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("nested/launch-profile.json").path
        #expect(try LaunchProfile.load(path: path) == LaunchProfile())

        var profile = LaunchProfile()
        profile.record(
            StartupReport(
                status: .succeeded,
                commands: [CommandReport(id: "db", status: .succeeded, startOffset: .zero, endOffset: .nanoseconds(12_345_678))],
                wallTime: .nanoseconds(12_345_678), criticalPath: ["db"], criticalPathDuration: .nanoseconds(12_345_678)))
        try profile.save(to: path)
        #expect(try LaunchProfile.load(path: path) == profile)
    }

    @Test func aCorruptFile_throwsAnErrorNamingItsPathAndEveryProblem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UInt64.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("launch-profile.json").path
        try Data(#"{"version": 1, "commands": [{"id": "db", "durationsMs": [12, -1]}, {"id": "a b", "durationsMs": []}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ReportError.self) { try LaunchProfile.load(path: path) }
        #expect(error.code == .invalid)
        #expect(error.file == path)
        #expect(error.problems.map(\.path) == ["commands[0].durationsMs[1]", "commands[1].id"])
        #expect(error.description.contains(path))

        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ReportError.self) { try LaunchProfile.load(path: path) }
    }

    @Test func aProfileFromAnotherPlan_changesNothing_andKeepsWhatItKnows() throws {
        var other = LaunchProfile()
        other.record(
            StartupReport(
                status: .succeeded, commands: [CommandReport(id: "widget", status: .succeeded, startOffset: .zero, endOffset: .seconds(1))],
                wallTime: .seconds(1), criticalPath: ["widget"], criticalPathDuration: .seconds(1)))
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in }
        builder.add("screen", dependsOn: ["config"], options: CommandOptions(estimate: .milliseconds(5))) { _ in }
        let applied = other.applied(to: try builder.build())
        #expect(applied.estimate(of: "config") == nil)
        #expect(applied.estimate(of: "screen") == .declared(.milliseconds(5)))
        #expect(applied.ids == ["config", "screen"])
        #expect(other.ids == ["widget"])
    }
}
