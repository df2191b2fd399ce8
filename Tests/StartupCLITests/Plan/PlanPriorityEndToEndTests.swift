import Foundation
import Testing

/// `startup plan` shows where a dependent raises a command's priority (its effective priority),
/// in text and JSON, and nothing where the priority is the command's own.
@Suite struct PlanPriorityEndToEndTests {
    static let manifest = """
        {"version": 1, "commands": [
          {"id": "configuration", "estimate": "5ms"},
          {"id": "database", "dependencies": ["configuration"], "estimate": "30ms", "priority": "low"},
          {"id": "first-screen", "dependencies": ["database"], "estimate": "15ms", "priority": "high"},
          {"id": "warm-up", "estimate": "100ms"},
          {"id": "index", "estimate": "1ms", "priority": 5},
          {"id": "reindex", "dependencies": ["index"], "estimate": "1ms", "priority": 9}
        ]}
        """

    @Test func plan_showsRaisedPriorities_inTextAndJSON() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", Self.manifest)

        let text = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(text.status == 0, "\(text.error)")
        let raised = text.output.split(separator: "\n").filter { $0.contains("  priority ") }
        #expect(raised.count == 3)
        #expect(raised.contains { $0.contains("configuration") && $0.hasSuffix("priority high from first-screen") })
        #expect(raised.contains { $0.contains("database") && $0.hasSuffix("priority high from first-screen") })
        #expect(raised.contains { $0.contains(" index ") && $0.hasSuffix("priority 9 from reindex") })

        let json = try await StartupBinary.run(["plan", "--format", "json"], in: folder.path)
        #expect(json.status == 0, "\(json.error)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let commands = try #require(plan["commands"] as? [[String: Any]])
        var effective: [String: String] = [:]
        for command in commands {
            if let priority = command["effectivePriority"] { effective[command["id"] as? String ?? "?"] = "\(priority)" }
        }
        #expect(effective == ["configuration": "high", "database": "high", "index": "9"])
    }
}
