/// The graph of what each command of a run waited for: its dependencies, and the commands it runs
/// `after` that ran and ended before it started. An `after` edge to a command that did not run,
/// or that ended after the command started (requested later, say), held nothing up and is no
/// edge. The one graph behind a report's critical path and slack, for the whole run
/// (``StartupReport/criticalPath``) and to a milestone (``StartupReport/criticalPath(to:)``).
enum WaitGraph {
    /// When a command ran, in nanoseconds from the start of the run; `nil` if it never started.
    typealias Span = (start: Int64, end: Int64)?

    /// The graph, or `nil` if its edges form a cycle.
    ///
    /// - Parameters:
    ///   - spans: When each command ran, by position.
    ///   - dependencies: The positions of a command's dependencies.
    ///   - after: The positions of the commands it runs after; those among its dependencies, and
    ///     itself, are left out.
    /// - Complexity: O(commands + edges), plus O(dependencies) per `after` edge kept.
    static func make<Dependencies: Sequence<Int>, After: Sequence<Int>>(
        spans: [Span], dependencies: (Int) -> Dependencies, after: (Int) -> After
    ) -> DependencyGraph? {
        var dependencyStart = [0]
        var dependencyList: [Int] = []
        var orderOnlyStart: [Int] = []
        dependencyStart.reserveCapacity(spans.count + 1)
        orderOnlyStart.reserveCapacity(spans.count)
        var hasOrderOnly = false
        for position in spans.indices {
            let first = dependencyList.count
            dependencyList += dependencies(position)
            orderOnlyStart.append(dependencyList.count)
            for predecessor in after(position) {
                guard predecessor != position, waited(for: spans[predecessor], by: spans[position]),
                    !dependencyList[first...].contains(predecessor)
                else { continue }
                dependencyList.append(predecessor)
                hasOrderOnly = true
            }
            dependencyStart.append(dependencyList.count)
        }
        return try? DependencyGraph.make(
            dependencyStart: dependencyStart, dependencyList: dependencyList,
            orderOnlyDependencyStart: hasOrderOnly ? orderOnlyStart : []
        ).get()
    }

    /// Whether a command that ran over `span` (or never started) waited for a command it runs
    /// after that ran over `predecessor`: the predecessor ran, and ended no later than the
    /// command started.
    private static func waited(for predecessor: Span, by span: Span) -> Bool {
        guard let predecessor else { return false }
        guard let span else { return true }
        return predecessor.end <= span.start
    }
}
