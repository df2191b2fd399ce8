import StartupKit

/// Turning a bench graph into StartupKit's terms.
extension BenchGraph {
    /// The identifiers StartupKit sees: `n0`, `n1`, ...
    var commandIDs: [CommandID] {
        (0..<count).map { CommandID("n\($0)") }
    }

    /// The intended durations by identifier, for `StartupPlan.timing(durations:)`.
    var intendedDurations: [CommandID: Duration] {
        Dictionary(uniqueKeysWithValues: zip(commandIDs, durationsMs.map { Duration.milliseconds($0) }))
    }

    /// A validated plan running `bodies[i]` as command `i`.
    ///
    /// - Parameters:
    ///   - bodies: One body per command.
    ///   - withEstimates: Whether to pass the intended durations as `CommandOptions(estimate:)`.
    /// - Throws: `PlanError` if the graph is invalid (a bug in the generator).
    func startupPlan(bodies: [Body], withEstimates: Bool = false) throws(PlanError) -> StartupPlan {
        precondition(bodies.count == count, "one body per command")
        let ids = commandIDs
        var builder = StartupPlanBuilder()
        for command in 0..<count {
            let body = bodies[command]
            let options = withEstimates ? CommandOptions(estimate: .milliseconds(durationsMs[command])) : CommandOptions()
            builder.add(ids[command], dependsOn: dependencies[command].map { ids[$0] }, options: options) { _ in
                await body()
            }
        }
        return try builder.build()
    }

    /// Like `startupPlan(bodies:withEstimates:)`, but stops the bench with a message on failure.
    func validPlan(bodies: [Body], withEstimates: Bool = false) -> StartupPlan {
        do {
            return try startupPlan(bodies: bodies, withEstimates: withEstimates)
        } catch {
            fatalError("StartupBench generated an invalid graph (\(label)): \(error)")
        }
    }
}
