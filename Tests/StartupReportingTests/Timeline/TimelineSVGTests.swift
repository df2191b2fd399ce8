import StartupKit
import StartupSeededRandom
import StartupTestSupport
import Testing

@testable import StartupReporting

/// The SVG timeline: well-formed XML, one bar per command, the critical path marked, slack,
/// statuses, budgets and escaping; readable sizes at 300 commands.
@Suite struct TimelineSVGTests {
    private func sample() throws -> SavedRun {
        try RecordFixtures.record(
            [
                ("configuration", 40, []),
                ("database", 120, ["configuration"]),
                ("cache", 30, ["configuration"]),
                ("ready", 0, ["database", "cache"]),
            ], budgets: ["cache": .milliseconds(10)])
    }

    @Test func render_isWellFormed_withOneBarPerCommandAndTheCriticalPathMarked() throws {
        let record = try sample()
        let document = try SVGDocument.parse(TimelineSVG(run: record, title: "startup run commands.json").render())
        #expect(document.elements.first?.name == "svg")
        #expect(document.commandGroups.count == 4)
        #expect(document.bars.count == 4)
        let critical = document.commandGroups.filter { $0.attributes["data-critical"] == "true" }.compactMap { $0.attributes["data-id"] }
        #expect(critical == ["configuration", "database", "ready"])
        #expect(document.bars.filter { $0.classes.contains("critical") }.count == 3)
        // Rows by start: configuration first; cache's slack is a tail, the critical path is linked.
        #expect(document.commandGroups.first?.attributes["data-id"] == "configuration")
        #expect(document.elements.filter { $0.classes.contains("slack") }.count == 1)
        let links = document.elements.firstIndex { $0.name == "g" && $0.classes.contains("critical-path") }.map { index in
            document.elements[(index + 1)...].prefix { $0.name == "path" }.count
        }
        #expect(links == 2)
        // Cache went over its 10ms budget: the tick is drawn and the tooltip says so.
        #expect(document.elements.filter { $0.classes.contains("budget") }.count == 1)
        #expect(document.titles.contains { $0.hasPrefix("cache\n") && $0.contains("budget 10ms, over by 20ms") })
        #expect(
            document.titles.contains {
                $0.hasPrefix("database\n") && $0.contains("on the critical path") && $0.contains("after configuration")
            })
    }

    /// configuration 20 -> feed 30 -> first-screen 20, and feed runs after ads (80), which it
    /// does not depend on.
    private func sampleWithAfter(ads: CommandStatus = .succeeded) throws -> SavedRun {
        try RecordFixtures.record(
            [("configuration", 20, []), ("ads", 80, []), ("feed", 30, ["configuration"]), ("first-screen", 20, ["feed"])],
            after: ["feed": ["ads"]], status: ["ads": ads])
    }

    @Test func render_afterEdges_areDashed_apartFromDependencies() throws {
        let svg = TimelineSVG(run: try sampleWithAfter(), title: "t").render()
        let document = try SVGDocument.parse(svg)
        #expect(document.children(ofGroupsWithClass: "dependencies").filter { $0.name == "path" }.count == 2)
        let ordering = try #require(document.elements.first { $0.name == "g" && $0.classes.contains("after-edges") })
        #expect(ordering.attributes["stroke-dasharray"] != nil)
        #expect(document.children(ofGroupsWithClass: "after-edges").filter { $0.name == "path" }.count == 1)
        #expect(svg.contains(">order-only after</text>"), "the legend names the dashed line")
        // The critical path runs through the order-only edge: that link is dashed, the next is not.
        let links = document.children(ofGroupsWithClass: "critical-path")
        #expect(links.map { $0.classes.contains("after") } == [true, false])
        #expect(links.map { $0.attributes["stroke-dasharray"] != nil } == [true, false])
        // Hovering feed's row shows its dependency and, dashed, what it runs after.
        let hover = document.elements.filter { element in
            element.name == "g" && element.classes.contains("deps") && document.parent(of: element)?.attributes["data-id"] == "feed"
        }
        #expect(hover.map { $0.classes.contains("after") } == [false, true])
        #expect(hover.map { $0.attributes["stroke-dasharray"] != nil } == [false, true])
        #expect(document.titles.contains { $0.hasPrefix("feed\n") && $0.hasSuffix("\nafter configuration\norder-only after ads") })
        #expect(document.titles.contains { $0.hasPrefix("first-screen\n") && !$0.contains("order-only") })
    }

    @Test func render_anAfterEdgeToACommandThatNeverStarted_isNotDrawn_andTheTooltipSaysSo() throws {
        let svg = TimelineSVG(run: try sampleWithAfter(ads: .cancelled), title: "t").render()
        let document = try SVGDocument.parse(svg)
        #expect(document.children(ofGroupsWithClass: "after-edges").isEmpty)
        #expect(!document.elements.contains { $0.classes.contains("deps") && $0.classes.contains("after") })
        #expect(document.titles.contains { $0.hasPrefix("feed\n") && $0.hasSuffix("\norder-only after ads (did not run)") })
    }

    @Test func render_withoutAfterEdges_hasNoOrderOnlyLinesOrLegend() throws {
        let svg = TimelineSVG(run: try sample(), title: "t").render()
        let document = try SVGDocument.parse(svg)
        #expect(!document.elements.contains { $0.classes.contains("after-edges") || $0.classes.contains("after") })
        #expect(!svg.contains("order-only"))
    }

    @Test func render_manyEdges_showsAfterEdgesDashedOnHover() throws {
        // 150 commands, each depending on up to 3 of the previous ones and running after a fourth:
        // more lines than are drawn at once.
        var commands: [(CommandID, Int, [CommandID])] = []
        var after: [CommandID: [CommandID]] = [:]
        for index in 0..<150 {
            let id = CommandID("c\(index)")
            commands.append((id, 5 + index % 7, (max(0, index - 3)..<index).map { CommandID("c\($0)") }))
            if index >= 4 { after[id] = [CommandID("c\(index - 4)")] }
        }
        let document = try SVGDocument.parse(TimelineSVG(run: try RecordFixtures.record(commands, after: after), title: "t").render())
        #expect(!document.elements.contains { $0.name == "g" && $0.classes.contains("after-edges") })
        let hover = document.elements.filter { $0.name == "g" && $0.classes.contains("deps") && $0.classes.contains("after") }
        #expect(hover.count == 146)
        #expect(hover.allSatisfy { $0.attributes["stroke-dasharray"] != nil })
    }

    @Test func render_statuses_neverStartedCommandsStillGetABar() throws {
        let record = try RecordFixtures.record(
            [
                ("a", 10, []), ("b", 20, ["a"]), ("c", 5, ["b"]), ("d", 5, []),
            ],
            status: [
                "b": RecordFixtures.exitStatus1, "c": .skipped(SkipReason(failedCommand: "b", dependency: "b")),
                "d": .timedOut(after: .milliseconds(5)),
            ])
        let svg = TimelineSVG(run: record, title: "t").render()
        let document = try SVGDocument.parse(svg)
        #expect(document.bars.count == 4)
        let statuses = Dictionary(
            uniqueKeysWithValues: document.commandGroups.map { ($0.attributes["data-id"]!, $0.attributes["data-status"]!) })
        #expect(statuses == ["a": "succeeded", "b": "failed", "c": "skipped", "d": "timedOut"])
        #expect(document.bars.first { $0.classes.contains("skipped") }?.attributes["fill"] == "none")
        #expect(svg.contains("skipped (b did not succeed)"))
        #expect(svg.contains("20ms · failed"))
    }

    @Test func render_aServicesBar_isItsTimeToReady_andSaysSo() async throws {
        var builder = StartupPlanBuilder()
        builder.addService("database") { _, ready in
            ready()
            try? await Task.sleep(for: .seconds(3_600))
        }
        builder.add("api", dependsOn: ["database"]) { _ in }
        let run = StartupOrchestrator(try builder.build()).start()
        let report = await run.report()
        await run.shutdown()
        let svg = TimelineSVG(run: SavedRun(report: report), title: "t").render()
        let document = try SVGDocument.parse(svg)
        #expect(document.bars.count == 2)
        #expect(svg.contains("ready in "))
        #expect(document.titles.contains { $0.hasPrefix("database\n") && $0.contains("service: the bar is its time to ready") })
        #expect(!document.titles.contains { $0.hasPrefix("api\n") && $0.contains("service") })
    }

    @Test func render_escapesIdsAndText() throws {
        let record = try RecordFixtures.record([("a&b", 5, []), ("<c>\"'", 5, ["a&b"])])
        let document = try SVGDocument.parse(TimelineSVG(run: record, title: "<title & more>").render())
        #expect(document.commandGroups.map { $0.attributes["data-id"] } == ["a&b", "<c>\"'"])
        #expect(document.titles.first == "<title & more>")
    }

    @Test func render_emptyRun_isStillAPicture() throws {
        let record = SavedRun(
            report: StartupReport(status: .succeeded, commands: [], wallTime: .zero, criticalPath: [], criticalPathDuration: .zero))
        let document = try SVGDocument.parse(TimelineSVG(run: record, title: "empty").render())
        #expect(document.commandGroups.isEmpty)
    }

    @Test func render_300Commands_staysReadable() throws {
        var generator = SeededGenerator(seed: 300)
        var commands: [(CommandID, Int, [CommandID])] = []
        for index in 0..<300 {
            let dependencies =
                index == 0
                ? []
                : Array(
                    Set(
                        (0..<Int(generator.next() % 4)).map { _ in
                            CommandID("service-\(Int(generator.next() % UInt64(index)))")
                        })
                ).sorted()
            commands.append((CommandID("service-\(index)"), 5 + Int(generator.next() % 120), dependencies))
        }
        let record = try RecordFixtures.record(commands)
        let svg = TimelineSVG(run: record, title: "big").render()
        let document = try SVGDocument.parse(svg)
        #expect(document.bars.count == 300)
        let root = try #require(document.elements.first)
        let height = try #require(Double(root.attributes["height"] ?? ""))
        #expect(height >= 300 * 14, "rows stay at least 14 pixels high")
        #expect(try #require(Double(root.attributes["font-size"] ?? "")) >= 11, "labels stay at least 11 pixels")
        #expect(document.elements.filter { $0.classes.contains("label") }.count == 300)
        // Too many dependency lines to draw them all: they show on hover instead.
        #expect(!document.elements.contains { $0.name == "g" && $0.classes.contains("dependencies") })
        #expect(document.elements.filter { $0.name == "g" && $0.classes.contains("deps") }.count > 200)
    }

    @Test func timeAxis_picksRoundSteps() {
        #expect(TimeAxis(span: 491, target: 10).step == 50)
        #expect(TimeAxis(span: 491, target: 10).end == 500)
        #expect(TimeAxis(span: 1_450, target: 14).step == 200)
        #expect(TimeAxis(span: 0.3, target: 10).step == 0.05)
        #expect(TimeAxis(span: 491).label(250) == "250ms")
        #expect(TimeAxis(span: 491).label(1_500) == "1.5s")
    }
}
