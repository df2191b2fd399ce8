import Testing

@testable import StartupKit

/// Checks the orchestrator's order for ready commands as the plan computes it.
@Suite struct ReadyKeyTests {
    private func plan(_ commands: [(CommandID, [CommandID], CommandOptions)]) throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        for (id, dependencies, options) in commands {
            builder.add(id, dependsOn: dependencies, options: options) { _ in }
        }
        return try builder.build()
    }

    @Test func keys_giveTheLongestChainOfEstimatesToTheEnd_plusOnePerCommand() throws {
        // Declared with dependents first, so declaration order is not a topological order.
        let plan = try plan([
            ("end", ["slow", "fast"], CommandOptions(estimate: .nanoseconds(20))),
            ("slow", ["start"], CommandOptions(estimate: .nanoseconds(500))),
            ("fast", ["start"], CommandOptions(estimate: .nanoseconds(100))),
            ("start", [], CommandOptions(estimate: .nanoseconds(1))),
            ("alone", [], CommandOptions()),
        ])
        // end: 20 + 1; slow: 500 + 1 + end; fast: 100 + 1 + end; start: 1 + 1 + slow; alone: 0 + 1.
        let expected: [Int64] = [21, 522, 122, 524, 1]
        #expect(plan.storage.readyKeys.map(\.remainingPath) == expected)
    }

    @Test func keys_carryEachCommandsEffectivePriorityAndPosition() throws {
        let plan = try plan([
            ("low", [], CommandOptions(priority: .low)),
            ("high", ["low"], CommandOptions(priority: .high)),
            ("custom", [], CommandOptions(priority: 7)),
            ("alone", [], CommandOptions(priority: .low)),
        ])
        let keys = plan.storage.readyKeys
        // "low" is raised by "high", which depends on it; "alone" keeps its own.
        #expect(keys.map(\.priority) == [1, 1, 7, -1])
        #expect(keys.map(\.position) == [0, 1, 2, 3])
    }

    @Test func effectivePriority_isTheHighestOfItsOwnAndEveryTransitiveDependents() throws {
        // a -> b -> c (high); d -> c; e (low) -> f (normal); g (5) -> h (low).
        let plan = try plan([
            ("a", [], CommandOptions()),
            ("b", ["a"], CommandOptions(priority: .low)),
            ("c", ["b", "d"], CommandOptions(priority: .high)),
            ("d", [], CommandOptions(priority: .low)),
            ("e", [], CommandOptions(priority: .low)),
            ("f", ["e"], CommandOptions()),
            ("g", [], CommandOptions(priority: 5)),
            ("h", ["g"], CommandOptions(priority: .low)),
        ])
        let effective = plan.ids.map { plan.effectivePriority(of: $0) }
        #expect(effective == [.high, .high, .high, .high, .normal, .normal, 5, .low])
    }

    @Test func order_putsPriorityFirst_thenTheLongerRemainingPath_thenDeclarationOrder() {
        let urgent = ReadyKey(priority: 1, remainingPath: 1, position: 3)
        let long = ReadyKey(priority: 0, remainingPath: 9, position: 2)
        let earlier = ReadyKey(priority: 0, remainingPath: 5, position: 0)
        let later = ReadyKey(priority: 0, remainingPath: 5, position: 1)
        #expect([later, earlier, long, urgent].sorted() == [urgent, long, earlier, later])
    }
}
