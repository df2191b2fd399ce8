import StartupSupport

extension StartupReport {
    /// The critical path to one command, a milestone such as the first screen: the chain of
    /// commands it waited for, directly or not, whose measured durations add up to the most,
    /// found as the whole run's ``criticalPath`` is. It follows dependencies and the `after`
    /// edges a command waited on (``CommandReport/after``): one to a command that did not run
    /// is no edge.
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
    /// Commands the milestone does not wait for, through dependencies or `after` edges, are
    /// absent: they cannot delay it. A report whose dependencies do not form a graph (only one
    /// made by hand can) gives none.
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

    /// The measured timing up to `milestone`, over the graph the commands' dependencies and
    /// `after` edges make; `nil` if they make none.
    private func measuredTiming(to milestone: CommandID) -> MeasuredTiming? {
        guard let position = index(of: milestone) else {
            preconditionFailure("the report has no command \(MessageQuoting.quoted(milestone))")
        }
        guard let graph = waitGraph() else { return nil }
        let durations = commands.map { command in command.startOffset == nil ? nil : command.duration.clampedNanoseconds }
        return MeasuredTiming(graph: graph, durations: durations, milestone: position)
    }

    /// The graph of what each command waited for (``WaitGraph``), ids the report lacks left
    /// out; `nil` if the edges form a cycle.
    ///
    /// - Complexity: O(commands + edges).
    private func waitGraph() -> DependencyGraph? {
        let spans: [WaitGraph.Span] = commands.map { command in
            guard let start = command.startOffset, let end = command.endOffset else { return nil }
            return (start.clampedNanoseconds, end.clampedNanoseconds)
        }
        return WaitGraph.make(spans: spans) {
            commands[$0].dependencies.lazy.compactMap(index(of:))
        } after: {
            commands[$0].after.lazy.compactMap(index(of:))
        }
    }
}
