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

    /// The graph of what each command waited for: its dependencies, and the commands it runs
    /// `after` that ran and ended before it started (an `after` edge to a command that did not
    /// run, or that ran later, held nothing up and is no edge). Ids the report lacks are left
    /// out; `nil` if the edges form a cycle.
    ///
    /// - Complexity: O(commands + edges).
    private func waitGraph() -> DependencyGraph? {
        var dependencyStart = [0]
        var dependencyList: [Int] = []
        var orderOnlyStart: [Int] = []
        dependencyStart.reserveCapacity(commands.count + 1)
        for (position, command) in commands.enumerated() {
            let first = dependencyList.count
            dependencyList += command.dependencies.compactMap(index(of:))
            orderOnlyStart.append(dependencyList.count)
            for predecessor in command.after {
                guard let found = index(of: predecessor), found != position, waited(for: commands[found], by: command),
                    !dependencyList[first...].contains(found)
                else { continue }
                dependencyList.append(found)
            }
            dependencyStart.append(dependencyList.count)
        }
        let hasOrderOnly = orderOnlyStart.indices.contains { orderOnlyStart[$0] < dependencyStart[$0 + 1] }
        return try? DependencyGraph.make(
            dependencyStart: dependencyStart, dependencyList: dependencyList,
            orderOnlyDependencyStart: hasOrderOnly ? orderOnlyStart : []
        ).get()
    }

    /// Whether `command`, which runs after `predecessor`, waited for it: `predecessor` ran, and
    /// ended no later than `command` started (if it did).
    private func waited(for predecessor: CommandReport, by command: CommandReport) -> Bool {
        guard let ended = predecessor.endOffset else { return false }
        guard let started = command.startOffset else { return true }
        return ended <= started
    }
}
