import Foundation
import StartupKit
import StartupManifest
import StartupReporting
import Testing

/// A report written as JSON and read back is the same report, field for field, whether it came
/// from a live run or was made by hand; the reader accepts exactly the ids the manifest does, and
/// reads reports saved before the status details were written.
@Suite struct ReportRoundTripTests {
    private struct Failure: Error, CustomStringConvertible {
        var description: String { "exit status 3: \"quoted\"\nsecond line" }
    }

    /// Every status, nanosecond offsets, retries, an optional failure, a skip whose root cause
    /// is two steps up, a blocking command, raised priorities (a name and a number), modules and
    /// `after` edges (one to a command the plan did not have).
    private func handMadeReport() -> StartupReport {
        StartupReport(
            status: .failed,
            commands: [
                CommandReport(
                    id: "config", status: .succeeded, startOffset: .nanoseconds(1_234), endOffset: .nanoseconds(40_000_017),
                    attempts: 1, slack: .zero, isOnCriticalPath: true, effectivePriority: .high, priority: .normal),
                CommandReport(
                    id: "keychain", status: .succeeded, startOffset: .nanoseconds(1_234), endOffset: .nanoseconds(9_000_000),
                    attempts: 1, slack: .nanoseconds(31_000_017), ranOnBlockingPool: true, effectivePriority: 7, priority: 7,
                    module: "KeychainKit"),
                CommandReport(
                    id: "database", status: .timedOut(after: .nanoseconds(120_000_001)), startOffset: .nanoseconds(40_000_017),
                    endOffset: .nanoseconds(400_000_999), attempts: 3, isOnCriticalPath: true, dependencies: ["config"]),
                CommandReport(
                    id: "cache", status: .skipped(SkipReason(failedCommand: "database", dependency: "database")),
                    dependencies: ["database"]),
                CommandReport(
                    id: "api", status: .skipped(SkipReason(failedCommand: "database", dependency: "cache")),
                    dependencies: ["cache", "config"]),
                CommandReport(
                    id: "analytics", status: .failed(Failure()), startOffset: .nanoseconds(40_000_017),
                    endOffset: .nanoseconds(41_500_000), attempts: 1, isOptional: true, slack: .nanoseconds(358_500_999),
                    dependencies: ["config"], module: "Analytics \"SDK\""),
                CommandReport(
                    id: "warm-up", status: .cancelled, startOffset: .milliseconds(50), endOffset: .milliseconds(60), attempts: 1,
                    after: ["analytics", "absent"]),
            ],
            wallTime: .nanoseconds(400_100_000), criticalPath: ["config", "database"], criticalPathDuration: .nanoseconds(400_000_999))
    }

    private func roundTrip(_ run: SavedRun) throws -> SavedRun {
        try SavedRun.decode(Array(run.json().text(pretty: true).utf8))
    }

    @Test func handMadeReport_readsBackEqualInEveryField() throws {
        let settings = RunSettings(
            manifestPath: "/srv/app/commands.json", isSimulated: true, jobs: 4,
            wallBudget: .milliseconds(350), budgets: ["database": .milliseconds(100), "api": .seconds(1)])
        let original = SavedRun(report: handMadeReport(), settings: settings)
        let read = try roundTrip(original)
        #expect(read == original)
        for (expected, actual) in zip(original.report.commands, read.report.commands) {
            #expect(actual == expected, "\(expected.id)")
            #expect(actual.status.detail == expected.status.detail)
            #expect(actual.dependencies == expected.dependencies)
            #expect(actual.after == expected.after)
        }
        #expect(read.report.failures.map(\.id) == ["database", "cache", "api", "warm-up"])
        #expect(read.budgetViolations == original.budgetViolations)
        #expect(read.budgetViolations.map(\.id) == [nil, "database"])
    }

    @Test(arguments: [0, 1, 6, 255, 256, 1_000])
    func savedText_isThePrettyJSONAndALineBreak_writtenInAnyNumberOfParts(count: Int) async throws {
        let kinds = handMadeReport().commands
        let commands = (0..<count).map { index in
            let kind = kinds[index % kinds.count]
            return CommandReport(
                id: CommandID("c\(index)"), status: kind.status, startOffset: kind.startOffset, endOffset: kind.endOffset,
                attempts: kind.attempts, isOptional: kind.isOptional, slack: kind.slack, isOnCriticalPath: kind.isOnCriticalPath,
                dependencies: index == 0 ? [] : [CommandID("c\(index - 1)")])
        }
        let report = StartupReport(
            status: .failed, commands: commands, wallTime: .nanoseconds(400_100_000), criticalPath: commands.prefix(2).map(\.id),
            criticalPathDuration: .nanoseconds(400_000_999))
        let run = SavedRun(report: report, settings: RunSettings(jobs: 3, budgets: ["c1": .milliseconds(1), "c7": .seconds(2)]))
        let expected = run.json().text(pretty: true) + "\n"
        for parts in [1, 2, 3, 8] {
            #expect(await run.text(parts: parts) == expected, "\(count) commands in \(parts) parts")
        }
    }

    @Test func longRuns_readBackToTheNanosecond() throws {
        // Past 2^53 ns (about 104 days) a Double cannot hold an odd count of nanoseconds: 200 days + 1 ns must survive.
        let long = Duration.nanoseconds(17_280_000_000_000_001)
        let report = StartupReport(
            status: .succeeded,
            commands: [
                CommandReport(
                    id: "soak", status: .succeeded, startOffset: .nanoseconds(1), endOffset: long, attempts: 1,
                    isOnCriticalPath: true)
            ],
            wallTime: long, criticalPath: ["soak"], criticalPathDuration: long - .nanoseconds(1))
        let original = SavedRun(report: report)
        #expect(try roundTrip(original) == original)
    }

    @Test func loadedFailure_keepsTheErrorsMessage() throws {
        let read = try roundTrip(SavedRun(report: handMadeReport()))
        guard case .failed(let error) = read.report["analytics"]?.status else {
            Issue.record("analytics did not read back as failed")
            return
        }
        #expect((error as? RecordedError)?.message == "exit status 3: \"quoted\"\nsecond line")
    }

    @Test func liveReport_readsBackEqualInEveryField() async throws {
        var builder = StartupPlanBuilder()
        builder.add("configuration") { _ in }
        builder.add("database", dependsOn: ["configuration"]) { _ in }
        builder.add("bad", options: CommandOptions(retry: RetryPolicy(maxRetries: 1, initialDelay: .zero))) { _ in throw Failure() }
        builder.add("optional", options: CommandOptions(isOptional: true)) { _ in throw Failure() }
        builder.add("after-bad", dependsOn: ["bad", "database"]) { _ in }
        builder.add("after-after", dependsOn: ["after-bad"], options: CommandOptions(priority: .high)) { _ in }
        let report = await StartupOrchestrator(try builder.build(), options: .init(maxConcurrency: 2)).run()
        #expect(report["bad"]?.attempts == 2)
        #expect(report["bad"].map { ($0.priority, $0.effectivePriority) } ?? (nil, nil) == (.normal, .high))
        #expect(report["after-bad"]?.dependencies == ["bad", "database"])
        let original = SavedRun(report: report, settings: RunSettings(jobs: 2))
        #expect(try roundTrip(original) == original)
    }

    @Test(arguments: ["a b", "tab\there", "", String(repeating: "x", count: 201)])
    func decode_rejectsTheIdsTheManifestRejects(id: String) throws {
        let escaped = id.replacingOccurrences(of: "\t", with: "\\t")
        let manifest = #"{"version": 1, "commands": [{"id": "\#(escaped)"}]}"#
        let report =
            #"{"status": "succeeded", "wallMs": 1, "criticalPath": [], "criticalPathMs": 0, "commands": [{"id": "\#(escaped)", "status": "succeeded", "durationMs": 0, "dependencies": []}]}"#
        var manifestMessages: [String] = []
        do { _ = try Manifest.decode(Array(manifest.utf8)) } catch { manifestMessages = error.problems.map(\.message) }
        do {
            _ = try SavedRun.decode(Array(report.utf8))
            Issue.record("the report accepted the id \"\(id)\", which the manifest rejects")
        } catch {
            #expect(error.problems.map(\.message) == manifestMessages)
        }
    }

    @Test func decode_reportSavedBeforeStatusDetails_tracesSkipsAndReadsTimeouts() throws {
        // As the previous version saved it: `detail` only, no `skipReason` or `timeoutMs`.
        let read = try SavedRun.decode(
            Array(
                """
                {"status": "failed", "wallMs": 130, "criticalPath": ["database"], "criticalPathMs": 130, "commands": [
                  {"id": "database", "status": "timedOut", "startMs": 0, "endMs": 130, "durationMs": 130, "attempts": 1, "slackMs": 0,
                   "optional": false, "critical": true, "detail": "timed out after 120ms", "dependencies": []},
                  {"id": "cache", "status": "skipped", "startMs": null, "endMs": null, "durationMs": 0, "attempts": 0, "slackMs": 0,
                   "optional": false, "critical": false, "detail": "dependency \\"database\\" did not succeed", "dependencies": ["database"]},
                  {"id": "api", "status": "skipped", "startMs": null, "endMs": null, "durationMs": 0, "attempts": 0, "slackMs": 0,
                   "optional": false, "critical": false, "dependencies": ["cache"]}
                ]}
                """.utf8))
        #expect(read.report["database"]?.status == .timedOut(after: .milliseconds(120)))
        #expect(read.report["cache"]?.status == .skipped(SkipReason(failedCommand: "database", dependency: "database")))
        #expect(read.report["api"]?.status == .skipped(SkipReason(failedCommand: "database", dependency: "cache")))
        #expect(read.report.commands.allSatisfy { $0.module == nil && $0.after.isEmpty })
    }

    @Test func savedJSON_writesAfterEdgesOnlyWhereACommandHasThem_andRefusesABadOne() throws {
        let text = SavedRun(report: handMadeReport()).json().text(pretty: false)
        #expect(text.contains(#""after":["analytics","absent"]"#))
        #expect(text.components(separatedBy: #""after""#).count == 2)
        let bad = """
            {"status": "succeeded", "wallMs": 0, "criticalPath": [], "criticalPathMs": 0, "commands": [
              {"id": "a", "status": "succeeded", "durationMs": 0, "dependencies": [], "after": "b"}
            ]}
            """
        let error = try #require(throws: ReportError.self) { try SavedRun.decode(Array(bad.utf8)) }
        #expect(error.description.contains(#"commands[0] ("a").after"#))
    }

    @Test func decode_reportSavedBeforeDeclaredPriorities_readsTheRaisedOnesAsRaised() throws {
        // As the previous version saved it: `effectivePriority` only where a dependent raised it, no `priority`.
        let read = try SavedRun.decode(
            Array(
                """
                {"status": "succeeded", "wallMs": 20, "criticalPath": ["config", "screen"], "criticalPathMs": 20, "commands": [
                  {"id": "config", "status": "succeeded", "startMs": 0, "endMs": 10, "durationMs": 10, "effectivePriority": "high",
                   "dependencies": []},
                  {"id": "screen", "status": "succeeded", "startMs": 10, "endMs": 20, "durationMs": 10, "dependencies": ["config"]}
                ]}
                """.utf8))
        let config = try #require(read.report["config"])
        #expect(config.priority == nil && config.effectivePriority == .high && config.isPriorityRaised)
        let screen = try #require(read.report["screen"])
        #expect(screen.priority == nil && screen.effectivePriority == nil && !screen.isPriorityRaised)
    }

    @Test func savedJSON_carriesEveryCommandsDeclaredAndEffectivePriority() throws {
        let text = SavedRun(report: handMadeReport()).json().text(pretty: false)
        #expect(text.contains(#""id":"config","#) && text.contains(#""priority":"normal","effectivePriority":"high""#))
        #expect(text.contains(#""priority":7,"effectivePriority":7"#))
    }

    @Test func save_writesWhatLoadReads() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UInt64.random(in: 0 ... .max))/last-run.json")
            .path
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let original = SavedRun(report: handMadeReport(), settings: RunSettings(jobs: 3))
        try original.save(to: path)
        #expect(try SavedRun.load(path: path) == original)
    }
}
