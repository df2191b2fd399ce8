import Foundation
import Testing

/// `startup plan` and `startup graph` show a manifest's `"after"` edges apart from its
/// dependencies, and time the plan along them; `startup run` waits for them without requiring them.
@Suite struct PlanAfterEndToEndTests {
    static let manifest = """
        {"version": 1, "commands": [
          {"id": "configuration", "estimate": "10ms"},
          {"id": "ads", "estimate": "200ms", "optional": true},
          {"id": "feed", "dependencies": ["configuration"], "after": ["ads"], "estimate": "30ms"},
          {"id": "first-screen", "dependencies": ["feed"], "estimate": "20ms"}
        ]}
        """

    @Test func plan_showsAfterEdgesApart_inTextAndJSON_andTimesThePlanAlongThem() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", Self.manifest)

        let text = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(text.status == 0, "\(text.error)")
        let feed = try #require(text.output.split(separator: "\n").first { $0.contains(" feed ") })
        #expect(feed.hasSuffix("after configuration  order-only after ads"))
        #expect(text.output.contains("ads 200ms -> feed 30ms -> first-screen 20ms"))

        let json = try await StartupBinary.run(["plan", "--format", "json"], in: folder.path)
        #expect(json.status == 0, "\(json.error)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let commands = try #require(plan["commands"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: commands.map { ($0["id"] as? String ?? "?", $0) })
        #expect(byID["feed"]?["dependencies"] as? [String] == ["configuration"])
        #expect(byID["feed"]?["after"] as? [String] == ["ads"])
        #expect(byID["ads"]?["after"] as? [String] == [])
        #expect(plan["criticalPath"] as? [String] == ["ads", "feed", "first-screen"])
        #expect(plan["predictedWallMs"] as? Double == 250)
    }

    @Test func graph_drawsAfterEdgesDashed_inDOTAndMermaid() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", Self.manifest)

        let dot = try await StartupBinary.run(["graph"], in: folder.path)
        #expect(dot.status == 0, "\(dot.error)")
        #expect(dot.output.contains(#""ads" -> "feed" [style=dashed, color=red, penwidth=2];"#))
        #expect(dot.output.contains(#""configuration" -> "feed";"#))

        let mermaid = try await StartupBinary.run(["graph", "--format", "mermaid"], in: folder.path)
        #expect(mermaid.status == 0, "\(mermaid.error)")
        #expect(mermaid.output.contains("c1 -.-> c2"))
        #expect(mermaid.output.contains("c0 --> c2"))
    }

    @Test func whatIf_predictsAlongAfterEdges_andCutsOne() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", Self.manifest)

        let json = try await StartupBinary.run(["plan", "--format", "json", "--what-if", "cut=ads->feed"], in: folder.path)
        #expect(json.status == 0, "\(json.error)")
        let prediction = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let whatIf = try #require(prediction["whatIf"] as? [String: Any])
        let baseline = try #require(whatIf["baseline"] as? [String: Any])
        // Before: ads 200 -> feed 30 -> first-screen 20; after the cut, ads alone.
        #expect(baseline["predictedWallMs"] as? Double == 250)
        #expect(baseline["criticalPath"] as? [String] == ["ads", "feed", "first-screen"])
        #expect(prediction["predictedWallMs"] as? Double == 200)
        #expect(prediction["criticalPath"] as? [String] == ["ads"])
    }

    @Test func run_waitsForAnAfterCommandThatFails_withoutSkippingAnything() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "ads", "run": "touch ads.ran; exit 3", "optional": true},
              {"id": "feed", "after": ["ads"], "run": "test -f ads.ran"}
            ]}
            """)
        let run = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(run.status == 0, "\(run.output)\(run.error)")
    }
}
