import Foundation
import StartupKit
import StartupManifest
import Testing

@testable import StartupReporting

/// The saved run report: a live report with its settings, written as the JSON of
/// `ReportExport.json`, read back exactly, and rejected with precise problems when it is not a report.
@Suite struct SavedRunTests {
    private func liveRecord() async throws -> (StartupReport, SavedRun) {
        var builder = StartupPlanBuilder()
        builder.add("configuration") { _ in }
        builder.add("database", dependsOn: ["configuration"]) { _ in }
        builder.add("bad") { _ in throw CancellationError() }
        builder.add("after-bad", dependsOn: ["bad"]) { _ in }
        let plan = try builder.build()
        let report = await StartupOrchestrator(plan).run()
        let manifest = Manifest(commands: [
            ManifestCommand(id: "configuration"), ManifestCommand(id: "database", dependencies: ["configuration"], budget: .seconds(5)),
            ManifestCommand(id: "bad"), ManifestCommand(id: "after-bad", dependencies: ["bad"]),
        ])
        let budgets = Dictionary(uniqueKeysWithValues: manifest.commands.compactMap { command in command.budget.map { (command.id, $0) } })
        let record = SavedRun(
            report: report,
            settings: RunSettings(
                manifestPath: "/tmp/commands.json", jobs: 2,
                wallBudget: .seconds(9), budgets: budgets))
        return (report, record)
    }

    @Test func json_keepsEveryKeyOfTheReportExportInOrder() async throws {
        let (report, record) = try await liveRecord()
        #expect(record.json() == ReportExport.json(report, settings: record.settings))
        guard case .object(let exported) = ReportExport.json(report), case .object(let saved) = record.json() else {
            Issue.record("not objects")
            return
        }
        #expect(Array(saved.prefix(exported.count).map(\.key)) == exported.map(\.key))
        let settingsKeys: Set = ["manifest", "jobs", "wallBudgetMs", "budgetViolations"]
        for (index, member) in exported.enumerated() where member.key != "commands" && !settingsKeys.contains(member.key) {
            #expect(saved[index].value == member.value, "\(member.key)")
        }
        guard case .array(let exportedCommands) = exported[2].value, case .array(let savedCommands) = saved[2].value else {
            Issue.record("commands are not arrays")
            return
        }
        for (left, right) in zip(exportedCommands, savedCommands) {
            guard case .object(let expected) = left, case .object(let actual) = right else { continue }
            #expect(Array(actual.prefix(expected.count).map(\.key)) == expected.map(\.key))
            #expect(zip(expected, actual).allSatisfy { $0.value == $1.value })
            #expect(Array(expected.prefix(7).map(\.key)) == ["id", "status", "startMs", "endMs", "durationMs", "attempts", "slackMs"])
        }
        let keys = saved.map(\.key)
        #expect(keys.suffix(6) == ["parallelism", "manifest", "simulated", "jobs", "wallBudgetMs", "budgetViolations"])
    }

    @Test func decode_readsBackWhatJSONWrote() async throws {
        let (_, record) = try await liveRecord()
        let text = record.json().text(pretty: true)
        let decoded = try SavedRun.decode(Array(text.utf8))
        // Times are written to the nanosecond: reading and writing is exact.
        let rewritten = decoded.json().text(pretty: true)
        #expect(rewritten == text)
        for (original, read) in zip(record.report.commands, decoded.report.commands) {
            #expect(original.id == read.id && original.status == read.status && original.attempts == read.attempts)
            #expect(original.duration == read.duration)
            #expect(original.isOnCriticalPath == read.isOnCriticalPath && original.status.detail == read.status.detail)
        }
        #expect(decoded.report.status == record.report.status && decoded.report.criticalPath == record.report.criticalPath)
        #expect(decoded.report.commands.map(\.status.name) == ["succeeded", "succeeded", "failed", "skipped"])
        #expect(decoded.report.commands[1].dependencies == ["configuration"])
        #expect(decoded.settings.budgets["database"] == .seconds(5))
        #expect(decoded.report.commands[3].startOffset == nil)
        #expect(decoded.settings.manifestPath == "/tmp/commands.json")
        #expect(decoded.settings.jobs == 2)
        #expect(decoded.settings.wallBudget == .seconds(9))
    }

    @Test func decode_minimalReport_fillsDefaults() throws {
        let record = try SavedRun.decode(
            Array(
                """
                {"status": "succeeded", "wallMs": 12.5, "criticalPath": ["a", "b"], "criticalPathMs": 12,
                 "commands": [
                   {"id": "a", "status": "succeeded", "startMs": 0, "endMs": 2, "durationMs": 2, "dependencies": []},
                   {"id": "b", "status": "succeeded", "startMs": 2, "endMs": 12, "durationMs": 10, "dependencies": ["a"], "future": {"x": 1}},
                   {"id": "c", "status": "skipped", "durationMs": 0, "dependencies": ["a"]}
                 ]}
                """.utf8))
        #expect(record.report.wallTime == .microseconds(12_500))
        #expect(record.report.commands.map(\.isOnCriticalPath) == [true, true, false])
        #expect(record.report.commands.map(\.attempts) == [1, 1, 0])
        #expect(record.settings == RunSettings())
    }

    @Test func decode_reportsEveryProblemWithItsPlace() {
        let text = """
            {"status": "fine", "wallMs": -1, "criticalPath": ["zz"], "criticalPathMs": "1",
             "commands": [
               {"id": "a", "status": "succeeded", "startMs": 0, "durationMs": 2, "dependencies": []},
               {"id": "b", "status": "won", "durationMs": "2", "dependencies": ["nope"]},
               {"status": "succeeded", "durationMs": 1}
             ]}
            """
        #expect(throws: ReportError.self) { try SavedRun.decode(Array(text.utf8), file: "r.json") }
        do {
            _ = try SavedRun.decode(Array(text.utf8), file: "r.json")
        } catch {
            #expect(error.code == .invalid)
            #expect(
                error.description == """
                    r.json:1:12: status: expected one of succeeded, failed, cancelled, found "fine"
                    r.json:1:30: wallMs: expected a number of milliseconds from 0 to 31536000000 (365 days), found -1
                    r.json:1:76: criticalPathMs: expected milliseconds as a number, found a string
                    r.json:3:4: commands[0] ("a"): "startMs" and "endMs" must both be numbers or both be null
                    r.json:4:26: commands[1] ("b").status: expected one of succeeded, failed, skipped, timedOut, cancelled, notRequested, found "won"
                    r.json:4:47: commands[1] ("b").durationMs: expected milliseconds as a number, found a string
                    r.json:5:4: commands[2]: missing "id"
                    r.json:5:4: commands[2]: missing "dependencies"
                    """)
        }
    }

    @Test func decode_checksTheGraphAndTheCriticalPath() {
        let text = """
            {"status": "succeeded", "wallMs": 1, "criticalPath": ["zz"], "criticalPathMs": 1, "commands": [
              {"id": "a", "status": "succeeded", "durationMs": 1, "dependencies": ["b"]},
              {"id": "b", "status": "succeeded", "durationMs": 1, "dependencies": ["a"]},
              {"id": "c", "status": "succeeded", "durationMs": 1, "dependencies": ["cc"]}
            ]}
            """
        do {
            _ = try SavedRun.decode(Array(text.utf8), file: "r.json")
            Issue.record("a cyclic report was accepted")
        } catch {
            #expect(
                error.problems.map(\.description) == [
                    #"criticalPath: unknown command "zz""#,
                    "commands: dependency cycle: a -> b -> a",
                    #"commands: unknown dependency "cc" of "c""#,
                ])
        }
    }

    @Test func decode_invalidJSONAndNonObjects() {
        for (text, message) in [("{", "invalid JSON"), ("[1]", "expected a run report (an object"), ("{}", #"missing "status""#)] {
            do {
                _ = try SavedRun.decode(Array(text.utf8))
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.problems.first?.message.hasPrefix(message) == true, "\(text): \(error)")
            }
        }
    }

    @Test func load_missingFileAndDirectory_areUnreadable() throws {
        #expect(throws: ReportError.self) { try SavedRun.load(path: "/nonexistent/report.json") }
        do {
            _ = try SavedRun.load(path: NSTemporaryDirectory())
        } catch {
            #expect(error.code == .unreadable)
            #expect(error.problems.first?.message == "is a directory, not a report file")
        }
    }

    @Test func budgetViolations_wallFirstThenCommandsInOrder() {
        let report = StartupReport(
            status: .succeeded,
            commands: [
                CommandReport(id: "a", status: .succeeded, startOffset: .zero, endOffset: .milliseconds(300)),
                CommandReport(id: "b", status: .succeeded, startOffset: .zero, endOffset: .milliseconds(100)),
                CommandReport(
                    id: "c", status: .failed(RecordedError(message: "exit status 1")), startOffset: .zero, endOffset: .milliseconds(900)),
            ],
            wallTime: .milliseconds(900), criticalPath: ["c"], criticalPathDuration: .milliseconds(900))
        let record = SavedRun(
            report: report,
            settings: RunSettings(
                wallBudget: .milliseconds(800), budgets: ["a": .milliseconds(200), "b": .milliseconds(100), "c": .milliseconds(800)]))
        #expect(
            record.budgetViolations == [
                BudgetViolation(id: nil, budget: .milliseconds(800), actual: .milliseconds(900)),
                BudgetViolation(id: "a", budget: .milliseconds(200), actual: .milliseconds(300)),
                BudgetViolation(id: "c", budget: .milliseconds(800), actual: .milliseconds(900)),
            ])
        #expect(record.budgetViolations[0].description == "wall time 900ms is over its budget of 800ms by 100ms")
        #expect(record.budgetViolations[1].description == #""a" took 300ms, over its budget of 200ms by 100ms"#)
    }

    @Test func makePlan_usesMeasuredDurationsAsEstimates() throws {
        let record = StartupReport(
            status: .succeeded,
            commands: [
                CommandReport(id: "a", status: .succeeded, startOffset: .zero, endOffset: .milliseconds(10)),
                CommandReport(
                    id: "b", status: .succeeded, startOffset: .milliseconds(10), endOffset: .milliseconds(30), dependencies: ["a"]),
                CommandReport(
                    id: "c", status: .succeeded, startOffset: .milliseconds(10), endOffset: .milliseconds(15), dependencies: ["a"]),
            ],
            wallTime: .milliseconds(30), criticalPath: ["a", "b"], criticalPathDuration: .milliseconds(30))
        let plan = try record.makePlan()
        #expect(plan.timing().criticalPath == ["a", "b"])
        #expect(plan.predictedWallTime(slots: 1) == .milliseconds(35))
    }
}
