extension StartupReport {
    /// The critical path to one command, a milestone such as the first screen: the chain of
    /// commands it waited for, directly or not, whose measured durations add up to the most,
    /// found as the whole run's ``criticalPath`` is.
    ///
    /// The whole run's critical path may end elsewhere (in a late, optional retry, say); this is
    /// the path that decided when the milestone ended. Each step's time is in its
    /// ``CommandReport``. If the milestone never started, the path ends at the last command on
    /// it that did; a report whose dependencies do not form a graph (only one made by hand can)
    /// has no path.
    ///
    /// - Parameter milestone: The command the path ends at.
    /// - Returns: The path, first command first, ending at `milestone` when it ran.
    /// - Precondition: The report has a command `milestone`.
    /// - Complexity: O(commands + edges).
    public func criticalPath(to milestone: CommandID) -> [CommandID] {
        guard let timing = measuredTiming(to: milestone) else { return [] }
        return timing.criticalPath.map { commands[$0].id }
    }

    /// The length of ``criticalPath(to:)``: the sum of the measured durations along it, when
    /// the milestone would have ended had nothing but its own chain run.
    ///
    /// - Parameter milestone: The command the path ends at.
    /// - Precondition: The report has a command `milestone`.
    /// - Complexity: O(commands + edges).
    public func criticalPathDuration(to milestone: CommandID) -> Duration {
        guard let timing = measuredTiming(to: milestone) else { return .zero }
        return .nanoseconds(timing.sweep.end)
    }

    /// The slack of every command relative to a milestone: how much later each command the
    /// milestone waited for, directly or not, could have finished without delaying the
    /// milestone's end, by measured durations. Zero along ``criticalPath(to:)``.
    ///
    /// Commands the milestone does not wait for are absent: they cannot delay it. A report whose
    /// dependencies do not form a graph (only one made by hand can) gives none.
    ///
    /// - Parameter milestone: The command whose end counts.
    /// - Returns: The slack of `milestone` (zero) and of each command it waits for, by id.
    /// - Precondition: The report has a command `milestone`.
    /// - Complexity: O(commands + edges).
    public func slack(to milestone: CommandID) -> [CommandID: Duration] {
        guard let timing = measuredTiming(to: milestone) else { return [:] }
        var slack: [CommandID: Duration] = [:]
        for position in commands.indices where timing.sweep.leadsToEnd[position] {
            slack[commands[position].id] = timing.slack(position)
        }
        return slack
    }

    /// The measured timing up to `milestone`, over the graph the commands' dependencies make;
    /// `nil` if they make none.
    private func measuredTiming(to milestone: CommandID) -> MeasuredTiming? {
        guard let position = index(of: milestone) else {
            preconditionFailure("the report has no command \(MessageQuoting.quoted(milestone))")
        }
        guard let graph = dependencyGraph() else { return nil }
        let durations = commands.map { command in command.startOffset == nil ? nil : command.duration.clampedNanoseconds }
        return MeasuredTiming(graph: graph, durations: durations, milestone: position)
    }

    /// The graph of the commands' dependencies, dependencies on ids the report lacks left out;
    /// `nil` if they form a cycle.
    ///
    /// - Complexity: O(commands + edges).
    private func dependencyGraph() -> DependencyGraph? {
        var dependencyStart = [0]
        var dependencyList: [Int] = []
        dependencyStart.reserveCapacity(commands.count + 1)
        for command in commands {
            dependencyList += command.dependencies.compactMap(index(of:))
            dependencyStart.append(dependencyList.count)
        }
        return try? DependencyGraph.make(dependencyStart: dependencyStart, dependencyList: dependencyList).get()
    }
}
