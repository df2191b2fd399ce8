/// Records what a run executed, to check a peer (or StartupKit) before timing it: every command
/// exactly once, never before its dependencies, never more at once than allowed.
actor ExecutionLog {
    private let dependencies: [[Int]]
    private var started: [Bool]
    private var finished: [Bool]
    private var running = 0
    private(set) var mostAtOnce = 0
    private(set) var problems: [String] = []

    /// Creates a log for a graph.
    init(_ graph: BenchGraph) {
        dependencies = graph.dependencies
        started = [Bool](repeating: false, count: graph.count)
        finished = [Bool](repeating: false, count: graph.count)
    }

    /// Bodies that log their start and end around an optional yield.
    nonisolated func bodies() -> [Body] {
        dependencies.indices.map { command in
            { [self] in
                await self.start(command)
                await Task.yield()
                await self.finish(command)
            }
        }
    }

    /// Checks the dependencies of `command` and marks it started.
    private func start(_ command: Int) {
        if started[command] { problems.append("n\(command) started twice") }
        for dependency in dependencies[command] where !finished[dependency] {
            problems.append("n\(command) started before its dependency n\(dependency) finished")
        }
        started[command] = true
        running += 1
        mostAtOnce = max(mostAtOnce, running)
    }

    /// Marks `command` finished.
    private func finish(_ command: Int) {
        finished[command] = true
        running -= 1
    }

    /// The problems of the run, plus one if a command never ran or more than `slots` ran at once.
    func verdict(slots: Int?) -> [String] {
        var all = problems
        if let missing = finished.firstIndex(of: false) { all.append("n\(missing) never ran") }
        if let slots, mostAtOnce > slots { all.append("\(mostAtOnce) commands ran at once, more than \(slots) slots") }
        return all
    }
}
