import Foundation
import StartupKit
import StartupManifest
import StartupReporting
import StartupTestSupport
import Testing

@testable import StartupCLI

/// The insight features called in-process: the saved report, measured estimates in plan and run,
/// budgets, plot and diff, with their output and exit codes.
@Suite struct InsightToolTests {
    private let sample = """
        {"version": 1, "commands": [
          {"id": "configuration", "run": "true", "estimate": "40ms"},
          {"id": "database", "dependencies": ["configuration"], "run": "true"},
          {"id": "cache", "dependencies": ["configuration"], "run": "true"},
          {"id": "ready", "dependencies": ["database", "cache"]}
        ]}
        """

    private func run(_ arguments: [String]) async -> (ExitCode, Console) {
        let console = Console.capturing(width: 80)
        let code = await StartupTool.main(arguments, environment: [:], console: console)
        return (code, console)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A saved report in which database took 120ms and cache 30ms.
    private func measuredReport() throws -> String {
        try RecordFixtures.record([
            ("configuration", 40, []), ("database", 120, ["configuration"]),
            ("cache", 30, ["configuration"]), ("ready", 0, ["database", "cache"]),
        ])
        .json().text(pretty: true)
    }

    // MARK: - The saved report

    @Test func run_savesItsReportBesideTheManifest_sameAsRunJSON() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let (code, console) = await run(["run", "-f", file, "--format", "json"])
        #expect(code == .success)
        let saved = try String(contentsOfFile: folder.file(".startup/last-run.json"), encoding: .utf8)
        #expect(saved == console.capturedOutput)
        let record = try SavedRun.load(path: folder.file(".startup/last-run.json"))
        #expect(record.report.commands.map(\.id) == ["configuration", "database", "cache", "ready"])
        #expect(record.report.commands[3].dependencies == ["database", "cache"])
        #expect(record.settings.manifestPath == URL(fileURLWithPath: file).standardizedFileURL.path)

        let text = await run(["run", "-f", file])
        #expect(text.1.capturedOutput.contains("Report saved to \(folder.file(".startup/last-run.json"))"))
    }

    @Test func run_reportPathAndNoReport() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        _ = await run(["run", "-f", file, "--report", folder.file("out/r.json"), "--output", "quiet"])
        #expect(FileManager.default.fileExists(atPath: folder.file("out/r.json")))
        #expect(!FileManager.default.fileExists(atPath: folder.file(".startup/last-run.json")))
        _ = await run(["run", "-f", file, "--no-report"])
        #expect(!FileManager.default.fileExists(atPath: folder.file(".startup/last-run.json")))
        // An explicit report path that cannot be written fails the run with 73.
        try folder.write("blocker", "")
        let blocked = await run(["run", "-f", file, "--report", folder.file("blocker/r.json")])
        #expect(blocked.0 == .cannotCreate)
        #expect(
            blocked.1.capturedError.contains(
                "error: cannot write the report to \(folder.file("blocker/r.json")): not a directory (making the folder \(folder.file("blocker")))"
            ))
    }

    @Test func run_reportToADevice_writesThroughIt_andReadsNoLastRunFromIt() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let (code, console) = await run(["run", "-f", file, "--report", "/dev/null", "--output", "quiet"])
        #expect(code == .success)
        #expect(!console.capturedError.contains("warning"), "\(console.capturedError)")
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
        // A device that never ends is not read as the last run (it ran out of memory before).
        let (zero, _) = await run(["run", "-f", file, "--report", "/dev/zero", "--output", "quiet"])
        #expect(zero == .success)
    }

    // MARK: - Measured estimates

    @Test func plan_usesMeasuredDurationsForCommandsWithoutEstimates_andSaysWhich() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        try FileManager.default.createDirectory(atPath: folder.file(".startup"), withIntermediateDirectories: true)
        try folder.write(".startup/last-run.json", try measuredReport())
        let (code, console) = await run(["plan", "-f", file])
        #expect(code == .success)
        let text = console.capturedOutput
        #expect(text.contains("  * database         120ms  after configuration"))
        #expect(text.contains("Predicted wall time with unlimited jobs: 160ms"))
        #expect(
            text.hasSuffix(
                "Measured in the last run (\(folder.path)/.startup/last-run.json), for 2 commands without an estimate: database 120ms, cache 30ms\n"
            ))

        let (_, jsonConsole) = await run(["plan", "-f", file, "--format", "json"])
        let object = try json(jsonConsole.capturedOutput)
        #expect(object["measuredFrom"] as? String == "\(folder.path)/.startup/last-run.json")
        let sources = (object["commands"] as? [[String: Any]])?.map { $0["estimateSource"] as? String }
        #expect(sources == ["manifest", "lastRun", "lastRun", "none"])
        #expect(object["predictedWallMs"] as? Double == 160)

        let (_, plain) = await run(["plan", "-f", file, "--no-report"])
        #expect(plain.capturedOutput.contains("Predicted wall time with unlimited jobs: 40ms"))
        #expect(!plain.capturedOutput.contains("Measured in the last run"))
    }

    @Test func plan_reportFiles_missing66_invalid65_defaultInvalidIsAWarning() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let missing = await run(["plan", "-f", file, "--report", folder.file("nope.json")])
        #expect(missing.0 == .manifestUnreadable)
        #expect(missing.1.capturedError == "error: cannot read report \(folder.file("nope.json")): no such file\n")
        let bad = try folder.write("bad.json", #"{"status": "succeeded"}"#)
        let invalid = await run(["plan", "-f", file, "--report", bad])
        #expect(invalid.0 == .invalidManifest)
        #expect(invalid.1.capturedError.hasPrefix("error: \(bad) is not a valid run report (4 problems):\n\(bad):1:1: missing \"wallMs\""))
        try FileManager.default.createDirectory(atPath: folder.file(".startup"), withIntermediateDirectories: true)
        try folder.write(".startup/last-run.json", "{")
        let warned = await run(["plan", "-f", file])
        #expect(warned.0 == .success)
        #expect(warned.1.capturedError.hasPrefix("warning: ignoring the last run's report \(folder.file(".startup/last-run.json")): "))
    }

    @Test func run_ordersReadyCommandsByMeasuredDurations() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [{"id": "short", "run": "true"}, {"id": "long", "run": "true"}]}
            """)
        func startOrder() async throws -> [String] {
            let (code, console) = await run(["run", "-f", file, "-j", "1", "--format", "json"])
            #expect(code == .success)
            let commands = try #require(try json(console.capturedOutput)["commands"] as? [[String: Any]])
            return commands.sorted { ($0["startMs"] as? Double ?? 0) < ($1["startMs"] as? Double ?? 0) }.compactMap { $0["id"] as? String }
        }
        #expect(try await startOrder() == ["short", "long"])  // no estimates: declaration order
        let measured = try RecordFixtures.record([("short", 1, []), ("long", 500, [])])
        try folder.write(".startup/last-run.json", measured.json().text())
        #expect(try await startOrder() == ["long", "short"])  // critical path first, by the last run
    }

    @Test func measuredEstimates_takeOnlySucceededRealRunsOfCommandsWithoutEstimates() throws {
        let manifest = Manifest(commands: [
            ManifestCommand(id: "estimated", run: "true", estimate: .milliseconds(5)),
            ManifestCommand(id: "measured", run: "true"),
            ManifestCommand(id: "failed", run: "true"),
            ManifestCommand(id: "milestone"),
            ManifestCommand(id: "new", run: "true"),
        ])
        var record = try RecordFixtures.record(
            [("estimated", 50, []), ("measured", 70, []), ("failed", 9, []), ("milestone", 3, [])],
            status: ["failed": RecordFixtures.exitStatus1])
        let measured = MeasuredEstimates(run: record, manifest: manifest, source: "r.json")
        #expect(measured.durations.map(\.id) == ["measured"])
        #expect(measured.applied(to: manifest).commands.map(\.estimate) == [.milliseconds(5), .milliseconds(70), nil, nil, nil])
        #expect(measured.line == "Measured in the last run (r.json), for 1 command without an estimate: measured 70ms")
        record.settings.isSimulated = true
        #expect(MeasuredEstimates(run: record, manifest: manifest, source: "r.json").isEmpty)
    }

    // MARK: - Budgets

    @Test func run_overBudget_exits1WithAClearMessage() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "slow", "run": "sleep 0.05", "budget": "1ms"},
              {"id": "quick", "run": "true", "budget": "60s"}
            ]}
            """)
        let (code, console) = await run(["run", "-f", file, "--budget", "2ms"])
        #expect(code == .failure)
        let text = console.capturedOutput
        #expect(text.contains("Succeeded in "))
        #expect(text.contains("Budgets: 2 of 3 exceeded\n  ✗ wall time "))
        #expect(text.contains("  ✗ slow      "))
        #expect(text.contains("  ✓ quick     "))
        #expect(console.capturedError.hasPrefix("error: over budget: wall time "))
        #expect(console.capturedError.contains(#"; "slow" took "#))
        #expect(console.capturedError.contains("over its budget of 1ms by "))
        let record = try SavedRun.load(path: folder.file(".startup/last-run.json"))
        #expect(record.budgetViolations.map(\.id) == [nil, "slow"])

        let (jsonCode, jsonConsole) = await run(["run", "-f", file, "--format", "json"])
        #expect(jsonCode == .failure)
        let violations = try #require(try json(jsonConsole.capturedOutput)["budgetViolations"] as? [[String: Any]])
        #expect(violations.map { $0["id"] as? String } == ["slow"])
    }

    @Test func run_withinBudget_exits0() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "true", "budget": "60s"}]}"#)
        let (code, console) = await run(["run", "-f", file, "--budget", "60s"])
        #expect(code == .success)
        #expect(console.capturedOutput.contains("Budgets: all 2 within budget"))
        #expect(console.capturedError.isEmpty)
    }

    // MARK: - Plot and diff

    @Test func plot_writesTheSVG_toTheDefaultPathOrStandardOutput() async throws {
        let folder = try TemporaryDirectory()
        let report = try folder.write("r.json", try measuredReport())
        let (code, console) = await run(["plot", report])
        #expect(code == .success)
        #expect(console.capturedOutput == "Timeline drawn in \(folder.file("r.svg")): 4 commands, critical path 160ms of 160ms\n")
        let document = try SVGDocument.parse(try String(contentsOfFile: folder.file("r.svg"), encoding: .utf8))
        #expect(document.bars.count == 4)
        let (_, standard) = await run(["plot", report, "-o", "-"])
        #expect(try SVGDocument.parse(standard.capturedOutput).commandGroups.count == 4)
    }

    @Test func plot_to_drawsTheCriticalPathToTheMilestone_notTheWholeRuns() async throws {
        let folder = try TemporaryDirectory()
        let report = try folder.write("r.json", try measuredReport())
        let (code, console) = await run(["plot", report, "--to", "cache"])
        #expect(code == .success)
        #expect(
            console.capturedOutput
                == "Timeline drawn in \(folder.file("r.svg")): 4 commands, critical path to cache 70ms: configuration -> cache\n")
        let document = try SVGDocument.parse(try String(contentsOfFile: folder.file("r.svg"), encoding: .utf8))
        let critical = document.commandGroups.filter { $0.attributes["data-critical"] == "true" }.compactMap { $0.attributes["data-id"] }
        #expect(critical == ["configuration", "cache"])
        #expect(document.titles.contains { $0.hasPrefix("database\n") && $0.contains("not on the way to cache") })

        let (typoCode, typo) = await run(["plot", report, "--to", "cahce"])
        #expect(typoCode == .usage)
        #expect(typo.capturedError == "error: --to: no command \"cahce\" in the report \(report) (did you mean \"cache\"?)\n")
    }

    @Test func plot_to_drawsTheAfterEdgesTheSavedReportCarries_dashed() async throws {
        let folder = try TemporaryDirectory()
        let saved = try RecordFixtures.record(
            [
                ("configuration", 20, []), ("ads", 80, []), ("feed", 30, ["configuration"]), ("first-screen", 20, ["feed"]),
                ("prefetch", 200, ["configuration"]),
            ], after: ["feed": ["ads"]])
        let report = try folder.write("r.json", saved.json().text(pretty: true))
        let (code, console) = await run(["plot", report, "--to", "first-screen"])
        #expect(code == .success)
        #expect(console.capturedOutput.hasSuffix(": 5 commands, critical path to first-screen 130ms: ads -> feed -> first-screen\n"))
        let document = try SVGDocument.parse(try String(contentsOfFile: folder.file("r.svg"), encoding: .utf8))
        #expect(document.children(ofGroupsWithClass: "after-edges").count == 1)
        #expect(document.children(ofGroupsWithClass: "critical-path").map { $0.classes.contains("after") } == [true, false])
        #expect(document.titles.contains { $0.hasPrefix("feed\n") && $0.hasSuffix("\nafter configuration\norder-only after ads") })
    }

    @Test func run_plot_drawsAManifestsAfterEdge_fromACommandThatFailed() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "ads", "run": "exit 3", "optional": true},
              {"id": "feed", "after": ["ads"], "run": "true"}
            ]}
            """)
        let (code, _) = await run(["run", "-f", file, "--plot", folder.file("t.svg")])
        #expect(code == .success)
        let document = try SVGDocument.parse(try String(contentsOfFile: folder.file("t.svg"), encoding: .utf8))
        #expect(document.children(ofGroupsWithClass: "dependencies").isEmpty)
        #expect(document.children(ofGroupsWithClass: "after-edges").count == 1)
        #expect(document.titles.contains { $0.hasPrefix("feed\n") && $0.hasSuffix("\nno dependencies\norder-only after ads") })
    }

    @Test func run_plot_drawsEveryCommand() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let (code, console) = await run(["run", "-f", file, "--plot", folder.file("t.svg")])
        #expect(code == .success)
        #expect(console.capturedOutput.contains("Timeline drawn in \(folder.file("t.svg"))"))
        let document = try SVGDocument.parse(try String(contentsOfFile: folder.file("t.svg"), encoding: .utf8))
        #expect(Set(document.commandGroups.compactMap { $0.attributes["data-id"] }) == ["configuration", "database", "cache", "ready"])
        #expect(document.commandGroups.contains { $0.attributes["data-critical"] == "true" })
    }

    @Test func plotAndDiff_fileErrors() async throws {
        let folder = try TemporaryDirectory()
        let missing = await run(["plot", folder.file("nope.json")])
        #expect(missing.0 == .manifestUnreadable)
        let bad = try folder.write("bad.json", "[]")
        let invalid = await run(["diff", bad, bad])
        #expect(invalid.0 == .invalidManifest)
        #expect(invalid.1.capturedError.contains("is not a valid run report (1 problem)"))
        let good = try folder.write("good.json", try measuredReport())
        try folder.write("blocker", "")
        let unwritable = await run(["plot", good, "-o", folder.file("blocker/t.svg")])
        #expect(unwritable.0 == .cannotCreate)
        let usage = await run(["diff", good])
        #expect(usage.0 == .usage)
    }

    @Test func diff_craftedReports_textAndJSON() async throws {
        let folder = try TemporaryDirectory()
        let before = try folder.write("before.json", try measuredReport())
        let after = try folder.write(
            "after.json",
            try RecordFixtures.record([
                ("configuration", 40, []), ("database", 60, ["configuration"]), ("cache", 90, ["configuration"]),
                ("ready", 0, ["database", "cache"]),
            ]).json().text())
        let (code, console) = await run(["diff", before, after])
        #expect(code == .success)
        let text = console.capturedOutput
        #expect(text.contains("Wall time      160ms -> 130ms  (-30ms, -18.8%)"))
        #expect(text.contains("Critical path after:  configuration 40ms -> cache 90ms -> ready 0ms"))
        #expect(
            text.contains(
                """
                What moved the wall time (-30ms):
                  critical path -30ms, outside it ±0ms (start-up overhead, waiting for slots)
                  the old critical path's commands: -60ms
                    database       -60ms (120ms -> 60ms)
                  the new critical path (configuration -> cache -> ready) now leads it by +30ms
                    cache          +60ms (30ms -> 90ms)

                """))
        let (_, jsonConsole) = await run(["diff", before, after, "--format", "json"])
        let object = try json(jsonConsole.capturedOutput)
        #expect(object["wallChangeMs"] as? Double == -30)
        #expect((object["after"] as? [String: Any])?["file"] as? String == after)
    }

    @Test func help_everySubcommandDocumentsItsOptionsAndExitCodes() async {
        for (subcommand, expected) in [
            ("plot", "-o, --output <path>"), ("diff", "--format <format>"), ("run", "--budget <time>"),
            ("plan", "--what-if <changes>"), ("graph", "--format <format>"),
        ] {
            let (code, console) = await run([subcommand, "--help"])
            #expect(code == .success)
            #expect(console.capturedOutput.contains(expected), "\(subcommand)")
            #expect(console.capturedOutput.contains(ExitCode.helpSection))
        }
        let (_, general) = await run(["--help"])
        #expect(general.capturedOutput.contains("  plot     Draw a saved run report as an SVG timeline"))
        #expect(general.capturedOutput.contains("  diff     Compare two saved run reports"))
    }
}
