import StartupKit
import Testing

/// Every command's declared and effective priority in a run's report, not only where a
/// dependent raised it.
@Suite struct ReportedPriorityTests {
    @Test func aRunsReport_givesEveryCommandItsDeclaredAndEffectivePriority() async throws {
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in }
        builder.add("screen", dependsOn: ["config"], options: CommandOptions(priority: .high)) { _ in }
        builder.add("analytics", options: CommandOptions(priority: .low)) { _ in }
        builder.add("warm-up") { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()

        let priorities = report.commands.map {
            "\($0.id): \($0.priority.map(String.init) ?? "nil") -> \($0.effectivePriority.map(String.init) ?? "nil")"
        }
        #expect(priorities == ["config: normal -> high", "screen: high -> high", "analytics: low -> low", "warm-up: normal -> normal"])
        #expect(report.commands.filter(\.isPriorityRaised).map(\.id) == ["config"])
    }
}
