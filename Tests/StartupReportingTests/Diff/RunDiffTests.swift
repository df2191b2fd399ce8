import StartupKit
import StartupSeededRandom
import StartupTestSupport
import Testing

@testable import StartupReporting

/// `startup diff`'s analysis on crafted runs: duration changes, and each change's effect on the
/// critical path, checked against the timing of the changed graph.
@Suite struct RunDiffTests {
    @Test func effects_attributeTheCriticalPathChange() throws {
        let (before, after) = try RecordFixtures.beforeAndAfter()
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
}
