import Foundation
import StartupKit
import StartupSeededRandom
import Testing

@testable import StartupReporting

@Suite struct ExportTests {
    private func plan() throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        builder.add("a", options: CommandOptions(estimate: .milliseconds(40))) { _ in }
        builder.add("b", dependsOn: ["a"], options: CommandOptions(estimate: .milliseconds(120))) { _ in }
        builder.add("c\"quoted\"", dependsOn: ["a"], options: CommandOptions(estimate: .milliseconds(10))) { _ in }
        return try builder.build()
    }

    private func parse(_ output: JSONOutput) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(output.text(pretty: true).utf8)) as? [String: Any])
    }

    @Test func planJSON_keepsTheDocumentedKeys() throws {
        let json = try parse(PlanExport.json(try plan(), jobs: 2))
        #expect(Set(json.keys).isSuperset(of: ["commands", "criticalPath", "criticalPathMs", "predictedWallMs", "jobs"]))
        #expect(json["criticalPath"] as? [String] == ["a", "b"])
        #expect(json["criticalPathMs"] as? Double == 160)
        #expect(json["jobs"] as? Int == 2)
        let commands = try #require(json["commands"] as? [[String: Any]])
        #expect(
            Set(commands[0].keys).isSuperset(of: [
                "id", "dependencies", "estimateMs", "level", "earliestStartMs", "latestStartMs", "slackMs",
            ]))
        #expect(commands[2]["slackMs"] as? Double == 110)
        #expect(commands[2]["id"] as? String == "c\"quoted\"")
    }

    @Test func planJSON_marksOnDemandCommands_andListsThePlansWarnings() throws {
        var builder = StartupPlanBuilder()
        builder.add("analytics", options: CommandOptions(isOptional: true)) { _ in }
        builder.add("upload", dependsOn: ["analytics"]) { _ in }
        builder.add("search-index", options: CommandOptions(activation: .onDemand)) { _ in }
        let plan = try builder.build()
        let json = try parse(PlanExport.json(plan, jobs: nil))
        let commands = try #require(json["commands"] as? [[String: Any]])
        #expect(commands.map { $0["onDemand"] as? Bool } == [false, false, true])
        #expect(json["warnings"] as? [String] == plan.warnings.map(\.description))
        #expect(plan.warnings.count == 1)
    }

    @Test func planJSON_unlimitedJobsIsNull() throws {
        let json = try parse(PlanExport.json(try plan(), jobs: nil))
        #expect(json["jobs"] is NSNull)
    }

    @Test func reportJSONAndTrace_keepTheDocumentedKeys() async throws {
        var builder = StartupPlanBuilder()
        builder.add("ok") { _ in }
        builder.add("bad") { _ in throw CancellationError() }
        builder.add("after", dependsOn: ["bad"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        let json = try parse(ReportExport.json(report))
        #expect(Set(json.keys).isSuperset(of: ["status", "wallMs", "commands", "criticalPath", "criticalPathMs"]))
        #expect(json["status"] as? String == "failed")
        let commands = try #require(json["commands"] as? [[String: Any]])
        #expect(commands.map { $0["status"] as? String } == ["succeeded", "failed", "skipped"])
        #expect(Set(commands[0].keys).isSuperset(of: ["id", "status", "startMs", "endMs", "durationMs", "attempts", "slackMs"]))
        #expect(commands[2]["startMs"] is NSNull)

        let trace = try parse(ReportExport.chromeTrace(report))
        let events = try #require(trace["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(Set(complete.compactMap { $0["name"] as? String }) == ["ok", "bad"])
        #expect(complete.allSatisfy { $0["ts"] is Double || $0["ts"] is Int })
    }

    @Test func dotAndMermaid_drawEveryEdgeAndMarkTheCriticalPath() throws {
        let plan = try plan()
        let dot = PlanExport.dot(plan)
        #expect(dot.contains(#""a" -> "b" [color=red, penwidth=2];"#))
        #expect(dot.contains(#""a" -> "c\"quoted\"";"#))
        let mermaid = PlanExport.mermaid(plan)
        #expect(mermaid.contains("c0 --> c1"))
        #expect(mermaid.contains("class c0,c1 critical"))
    }

    @Test func dotMermaidAndJSON_drawAfterEdgesApartFromDependencies() throws {
        var builder = StartupPlanBuilder()
        builder.add("ads", options: CommandOptions(estimate: .milliseconds(50))) { _ in }
        builder.add("config", options: CommandOptions(estimate: .milliseconds(10))) { _ in }
        builder.add("feed", dependsOn: ["config"], after: ["ads"], options: CommandOptions(estimate: .milliseconds(10))) { _ in }
        let plan = try builder.build()
        let dot = PlanExport.dot(plan)
        #expect(dot.contains(#""ads" -> "feed" [style=dashed, color=red, penwidth=2];"#))
        #expect(dot.contains(#""config" -> "feed";"#))
        let mermaid = PlanExport.mermaid(plan)
        #expect(mermaid.contains("c0 -.-> c2"))
        #expect(mermaid.contains("c1 --> c2"))
        let commands = try #require(try parse(PlanExport.json(plan, jobs: nil))["commands"] as? [[String: Any]])
        #expect(commands.map { $0["after"] as? [String] } == [[], [], ["ads"]])
        #expect(commands.map { $0["dependencies"] as? [String] } == [[], [], ["config"]])
    }

    @Test func jsonOutput_escapesAndFormatsNumbers() {
        let value = JSONOutput.object([
            ("s", .string("a\"b\\c\n\u{1}")), ("n", .number(1.23456)), ("i", .integer(-3)), ("x", .number(.nan)),
        ])
        #expect(value.text() == #"{"s":"a\"b\\c\n\u0001","n":1.235,"i":-3,"x":null}"#)
    }

    @Test(arguments: 0..<40) func jsonOutput_writtenInParts_isTheSameText(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        func leaf() -> JSONOutput {
            switch random.below(5) {
            case 0: .string("id-\(random.below(1_000))\n")
            case 1: .milliseconds(.nanoseconds(Int64(random.below(1_000_000_000))))
            case 2: .integer(random.below(100) - 50)
            case 3: .object([("a", .bool(true)), ("b", .array([.null, .string("x")]))])
            default: .array([])
            }
        }
        // One long array (long enough to be cut, or just too short) among other members, in any position.
        let length = [0, 1, 255, 256, 257, 1_000][random.below(6)]
        var members: [(key: String, value: JSONOutput)] = (0..<random.below(4)).map { ("m\($0)", leaf()) }
        members.insert(("long", .array((0..<length).map { _ in leaf() })), at: random.below(members.count + 1))
        members.append(("short", .array((0..<random.below(300)).map { _ in leaf() })))
        let value = JSONOutput.object(members)
        for pretty in [false, true] {
            for parts in [1, 2, 3, 7] {
                let written = await value.text(pretty: pretty, parts: parts)
                #expect(written == value.text(pretty: pretty), "pretty \(pretty), \(parts) parts, \(length) elements")
            }
        }
        let array = JSONOutput.array((0..<600).map { .integer($0) })  // not an object: written as one piece
        #expect(await array.text(parts: 4) == array.text())
    }

    @Test func jsonOutput_writesWholeNumbersAndMillisecondsExactly() {
        let value = JSONOutput.array([
            .integer(0), .integer(7), .integer(1_234_567_890), .integer(-10), .integer(.max), .integer(.min),
            .milliseconds(.zero), .milliseconds(.nanoseconds(42)), .milliseconds(.milliseconds(12_000)),
            .milliseconds(.nanoseconds(-1_500_000)),
        ])
        #expect(
            value.text() == "[0,7,1234567890,-10,9223372036854775807,-9223372036854775808,0,0.000042,12000,-1.5]")
        #expect(
            JSONOutput.object([("a", .array([.null, .bool(true)]))]).text(pretty: true) == "{\n  \"a\": [\n    null,\n    true\n  ]\n}")
    }

    @Test func prettyText_indentsEveryLevel_evenDeeperThanThirtyTwo() {
        for depth in [1, 31, 32, 33, 40] {
            var value = JSONOutput.bool(false)
            for _ in 0..<depth { value = .array([value]) }
            let opening = (0..<depth).map { String(repeating: "  ", count: $0) + "[" }
            let closing = (0..<depth).reversed().map { String(repeating: "  ", count: $0) + "]" }
            let expected = (opening + [String(repeating: "  ", count: depth) + "false"] + closing).joined(separator: "\n")
            #expect(value.text(pretty: true) == expected, "depth \(depth)")
        }
    }
}
