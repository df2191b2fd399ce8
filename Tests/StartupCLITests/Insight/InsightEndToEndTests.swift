import Foundation
import StartupTestSupport
import Testing

/// The insight features through the built `startup` binary: standard output, standard error,
/// exit codes and the files written.
@Suite struct InsightEndToEndTests {
    private let manifest = """
        {"version": 1, "commands": [
          {"id": "configuration", "run": "sleep 0.02", "estimate": "20ms"},
          {"id": "database", "dependencies": ["configuration"], "run": "sleep 0.03"},
          {"id": "cache", "dependencies": ["configuration"], "run": "true", "budget": "60s"},
          {"id": "ready", "dependencies": ["database", "cache"]}
        ]}
        """

    private func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func run_overBudget_exits1_savesTheReport_andDrawsThePlot() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        let result = try await StartupBinary.run(["run", "--plot", "timeline.svg", "--budget", "1ms"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("Succeeded in "))
        #expect(result.output.contains("Budgets: 1 of 2 exceeded"))
        #expect(result.output.contains("Timeline drawn in timeline.svg"))
        #expect(result.error.hasPrefix("error: over budget: wall time "))
        #expect(result.error.contains("is over its budget of 1ms by "))
        let svg = try SVGDocument.parse(try String(contentsOfFile: folder.file("timeline.svg"), encoding: .utf8))
        #expect(svg.bars.count == 4)
        #expect(
            svg.commandGroups.filter { $0.attributes["data-critical"] == "true" }.compactMap { $0.attributes["data-id"] }
                == ["configuration", "database", "ready"])
        let report = try json(try String(contentsOfFile: folder.file(".startup/last-run.json"), encoding: .utf8))
        #expect(report["wallBudgetMs"] as? Double == 1)
        #expect((report["budgetViolations"] as? [[String: Any]])?.count == 1)

        let within = try await StartupBinary.run(["run", "--budget", "60s", "--output", "quiet"], in: folder.path)
        #expect(within.status == 0)
        #expect(within.error.isEmpty)
    }

    @Test func plot_plan_andDiff_readWhatRunSaved() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        #expect(try await StartupBinary.run(["run", "--report", "before.json"], in: folder.path).status == 0)
        #expect(try await StartupBinary.run(["run", "--output", "quiet"], in: folder.path).status == 0)

        let plot = try await StartupBinary.run(["plot"], in: folder.path)
        #expect(plot.status == 0)
        #expect(plot.output.hasPrefix("Timeline drawn in .startup/last-run.svg: 4 commands, critical path "))
        #expect(try SVGDocument.parse(try String(contentsOfFile: folder.file(".startup/last-run.svg"), encoding: .utf8)).bars.count == 4)

        let plan = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(plan.status == 0)
        #expect(plan.output.contains("Measured in the last run (.startup/last-run.json), for 2 commands without an estimate: database "))
        let planJSON = try json(try await StartupBinary.run(["plan", "--format", "json"], in: folder.path).output)
        #expect(
            (planJSON["commands"] as? [[String: Any]])?.map { $0["estimateSource"] as? String } == [
                "manifest", "lastRun", "lastRun", "none",
            ])

        let diff = try await StartupBinary.run(["diff", "before.json", ".startup/last-run.json"], in: folder.path)
        #expect(diff.status == 0)
        #expect(diff.output.hasPrefix("Comparing before.json (before) with .startup/last-run.json (after)\n\nWall time "))
        #expect(diff.output.contains("What moved the wall time ("))
        #expect(diff.output.contains("Critical path before: configuration "))
        let diffJSON = try json(
            try await StartupBinary.run(["diff", "before.json", ".startup/last-run.json", "--format", "json"], in: folder.path).output)
        #expect((diffJSON["commands"] as? [[String: Any]])?.count == 4)
    }

    @Test func plan_whatIf_predictsTheChangedGraph() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "configuration", "estimate": "20ms"},
              {"id": "database", "dependencies": ["configuration"], "estimate": "100ms"},
              {"id": "cache", "dependencies": ["configuration"], "estimate": "40ms"},
              {"id": "ready", "dependencies": ["database", "cache"]}
            ]}
            """)
        let text = try await StartupBinary.run(["plan", "--what-if", "scale=database:0.25"], in: folder.path)
        #expect(text.status == 0)
        #expect(text.output.contains("Predicted wall time: 120ms -> 60ms (-60ms, -50.0%)"))
        #expect(text.output.contains("Critical path after  (60ms): configuration 20ms -> cache 40ms -> ready 0ms"))
        let json = try json(
            try await StartupBinary.run(["plan", "--what-if", "drop=database", "--format", "json", "-j", "1"], in: folder.path).output)
        #expect(json["predictedWallMs"] as? Double == 60)
        let usage = try await StartupBinary.run(["plan", "--what-if", "drop=databse"], in: folder.path)
        #expect(usage.status == 64)
        #expect(usage.error.contains(#"unknown command "databse" (did you mean "database"?)"#))
    }

    /// A saved run of one command `a` that took `milliseconds`.
    private func savedRun(milliseconds: String) -> String {
        """
        {"status": "succeeded", "wallMs": \(milliseconds), "commands": [{"id": "a", "status": "succeeded",
          "startMs": 0, "endMs": \(milliseconds), "durationMs": \(milliseconds), "attempts": 1, "slackMs": 0,
          "critical": true, "dependencies": []}], "criticalPath": ["a"], "criticalPathMs": \(milliseconds)}
        """
    }

    @Test func diff_fromOneNanosecondToAYear_printsCappedPercentagesInsteadOfCrashing() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("before.json", savedRun(milliseconds: "0.000001"))
        try folder.write("after.json", savedRun(milliseconds: "31536000000"))
        let diff = try await StartupBinary.run(["diff", "before.json", "after.json"], in: folder.path)
        #expect(diff.status == 0, "stderr: \(diff.error)")
        #expect(diff.output.contains("Wall time      0ms -> "))
        #expect(diff.output.contains(", +100000000000000.0%)\n"))
        #expect(diff.output.contains("  +1000000000000000%\n"))
        let back = try await StartupBinary.run(["diff", "after.json", "before.json"], in: folder.path)
        #expect(back.status == 0, "stderr: \(back.error)")
        #expect(back.output.contains(", -100.0%)\n"))
    }

    @Test func reportFileErrors_exit66_65_64() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("bad.json", #"{"status": "succeeded", "wallMs": "fast"}"#)
        let missing = try await StartupBinary.run(["plot", "nope.json"], in: folder.path)
        #expect(missing.status == 66)
        #expect(missing.error == "error: cannot read report nope.json: no such file\n")
        let invalid = try await StartupBinary.run(["diff", "bad.json", "bad.json"], in: folder.path)
        #expect(invalid.status == 65)
        #expect(invalid.error.contains("bad.json:1:35: wallMs: expected milliseconds as a number, found a string"))
        #expect(try await StartupBinary.run(["diff", "bad.json"], in: folder.path).status == 64)
        let budget = try await StartupBinary.run(["run", "--budget", "5"], in: folder.path)
        #expect(budget.status == 64)
        #expect(budget.error.contains(#"invalid duration "5" for --budget"#))
    }
}
