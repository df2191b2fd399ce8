import Testing

@testable import StartupKit

/// Durations whose sums pass the 292 years of `Int64` nanoseconds: the timing saturates, never traps.
@Suite struct PlanTimingSaturationTests {
    private func chain(_ count: Int, each estimate: Duration) throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        for index in 0..<count {
            builder.add(
                CommandID("c\(index)"), dependsOn: index == 0 ? [] : [CommandID("c\(index - 1)")],
                options: CommandOptions(estimate: estimate)
            ) { _ in }
        }
        builder.add("side", options: CommandOptions(estimate: estimate)) { _ in }
        return try builder.build()
    }

    @Test func timing_whenAChainPassesTheLimit_saturatesWithNonNegativeSlack() throws {
        let plan = try chain(3, each: .seconds(9_000_000_000))
        let timing = plan.timing()
        #expect(timing.criticalPathDuration == .nanoseconds(Int64.max))
        #expect(timing.criticalPath == ["c0", "c1", "c2"])
        for entry in timing.entries {
            #expect(entry.slack >= .zero, "\(entry.id)")
            #expect(entry.latestStart >= .zero, "\(entry.id)")
        }
    }

    @Test func predictedWallTime_whenTheSumPassesTheLimit_saturates() throws {
        let plan = try chain(3, each: .seconds(9_000_000_000))
        #expect(plan.predictedWallTime(slots: 1) == .nanoseconds(Int64.max))
        #expect(plan.predictedWallTime() == .nanoseconds(Int64.max))
    }

    @Test func timing_withNegativeDurations_countsThemAsZero() throws {
        let plan = try chain(2, each: .seconds(1))
        let negative: [CommandID: Duration] = ["c0": .seconds(-5), "c1": .seconds(-5), "side": .seconds(-5)]
        #expect(plan.timing(durations: negative).criticalPathDuration == .zero)
        #expect(plan.predictedWallTime(durations: negative, slots: 1) == .zero)
    }
}
