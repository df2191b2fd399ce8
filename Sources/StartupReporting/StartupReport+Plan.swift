import StartupKit

extension StartupReport {
    /// The run's graph as a plan whose estimates are the measured durations, for timing
    /// questions about the run (`plan.timing()`, `plan.predictedWallTime(slots:)`).
    ///
    /// - Parameter durations: Durations to use instead of the measured ones, by id.
    /// - Throws: `PlanError` if the commands do not form a graph (duplicate ids, unknown
    ///   dependencies, cycles); never for the report of a real run or one read by
    ///   ``SavedRun/decode(_:file:)``.
    /// - Complexity: O(commands + edges).
    public func makePlan(durations: [CommandID: Duration] = [:]) throws(PlanError) -> StartupPlan {
        var builder = StartupPlanBuilder()
        for command in commands {
            let options = CommandOptions(isOptional: command.isOptional, estimate: durations[command.id] ?? command.duration)
            builder.add(command.id, dependsOn: command.dependencies, after: command.after, options: options) { _ in }
        }
        return try builder.build()
    }
}
