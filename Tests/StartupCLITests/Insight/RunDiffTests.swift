import Foundation
import StartupKit
import StartupManifest
import StartupTestSupport
import Testing

@testable import StartupCLI
@testable import StartupReporting

/// `startup diff`'s analysis on crafted runs: duration changes, and each change's effect on the
/// critical path, checked against the timing of the changed graph.
@Suite struct RunDiffTests {
    /// Before: a 10 -> b 50 -> d 10, with c 20 beside b (slack 30) and x 15 on its own.
    /// After: a 5, b 80, c 40 (still within slack), e 5 added, x removed.
    private func runs() throws -> (StartupReport, StartupReport) {
        let before = try RecordFixtures.record([
            ("a", 10, []), ("b", 50, ["a"]), ("c", 20, ["a"]), ("d", 10, ["b", "c"]), ("x", 15, []),
        ])
        let after = try RecordFixtures.record([
            ("a", 5, []), ("b", 80, ["a"]), ("c", 40, ["a"]), ("d", 10, ["b", "c"]), ("e", 5, ["a"]),
        ])
        return (before.report, after.report)
    }

    @Test func effects_attributeTheCriticalPathChange() throws {
        let (before, after) = try runs()
        let diff = RunDiff(before: before, after: after)
        #expect(diff.wallChange == .milliseconds(25))
        #expect(diff.criticalPathChange == .milliseconds(25))
        let effects = Dictionary(uniqueKeysWithValues: diff.entries.map { ($0.id, $0.effect) })
        #expect(effects == ["a": .milliseconds(-5), "b": .milliseconds(30), "c": .zero, "d": .zero, "e": .zero, "x": .zero])
        #expect(diff.entries.map(\.id) == ["a", "b", "c", "d", "e", "x"])
        #expect(diff.entries.first { $0.id == "e" }?.before == nil)
        #expect(diff.entries.first { $0.id == "x" }?.after == nil)
        #expect(diff.entries.first { $0.id == "b" }?.change == .milliseconds(30))
        #expect(!diff.criticalPathChanged && diff.oldPathChange == .milliseconds(25) && diff.newPathLead == .zero)
    }

    @Test(arguments: 0..<40)
    func effects_matchTheTimingOfTheGraphWithOneChangeReverted(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var beforeCommands: [(CommandID, Int, [CommandID])] = []
        var afterCommands: [(CommandID, Int, [CommandID])] = []
        for index in 0..<25 {
            let dependencies =
                index == 0
                ? []
                : Array(
                    Set(
                        (0..<Int(generator.next() % 3)).map { _ in
                            CommandID("c\(Int(generator.next() % UInt64(index)))")
                        })
                ).sorted()
            let duration = 1 + Int(generator.next() % 50)
            let changed = generator.next() % 3 == 0 ? max(0, duration + Int(generator.next() % 60) - 30) : duration
            beforeCommands.append((CommandID("c\(index)"), duration, dependencies))
            afterCommands.append((CommandID("c\(index)"), changed, dependencies))
        }
        let before = try RecordFixtures.record(beforeCommands).report
        let after = try RecordFixtures.record(afterCommands).report
        let diff = RunDiff(before: before, after: after)
        let plan = try after.makePlan()
        let length = plan.timing().criticalPathDuration
        for entry in diff.entries {
            let reverted = plan.timing(durations: [entry.id: entry.before!.duration]).criticalPathDuration
            #expect(entry.effect == length - reverted, "\(entry.id)")
        }
    }

    @Test func text_showsChangesPathsAndWhatMoved() throws {
        let (before, after) = try runs()
        let text = DiffTextRenderer(diff: RunDiff(before: before, after: after), beforeFile: "old.json", afterFile: "new.json").render()
        #expect(text.contains("Wall time      70ms -> 95ms  (+25ms, +35.7%)"))
        #expect(text.contains("Critical path before: a 10ms -> b 50ms -> d 10ms"))
        #expect(text.contains("Critical path after:  a 5ms -> b 80ms -> d 10ms"))
        #expect(
            text.contains(
                """
                What moved the wall time (+25ms):
                  critical path +25ms (the same commands), outside it ±0ms (start-up overhead, waiting for slots)
                    b  +30ms (50ms -> 80ms)
                    a  -5ms (10ms -> 5ms)
                  absorbed by slack (no effect on the wall time):
                    c  +20ms (20ms -> 40ms, 40ms slack left)

                """))
        #expect(text.contains("*° b             50ms      80ms     +30ms  +60%"))
        #expect(text.contains("   e                -       5ms     added"))
        #expect(text.contains("   x             15ms         -   removed"))
    }

    @Test func json_hasBothRunsAndEveryCommand() throws {
        let (before, after) = try runs()
        let output = DiffJSON.json(RunDiff(before: before, after: after), beforeFile: "old.json", afterFile: "new.json")
        let json = try #require(JSONSerialization.jsonObject(with: Data(output.text().utf8)) as? [String: Any])
        #expect(json["wallChangeMs"] as? Double == 25)
        #expect((json["before"] as? [String: Any])?["criticalPath"] as? [String] == ["a", "b", "d"])
        let commands = try #require(json["commands"] as? [[String: Any]])
        #expect(commands.count == 6)
        let b = try #require(commands.first { $0["id"] as? String == "b" })
        #expect(b["changeMs"] as? Double == 30 && b["criticalPathEffectMs"] as? Double == 30)
        let x = try #require(commands.first { $0["id"] as? String == "x" })
        #expect(x["afterMs"] is NSNull && x["changeMs"] is NSNull)
    }
}
