/// The critical path and slack of a run by its measured durations, for the whole run or up to one
/// milestone: the one analysis behind a report's ``StartupReport/criticalPath``, each command's
/// slack, ``StartupReport/criticalPath(to:)`` and ``StartupReport/slack(to:)``.
struct MeasuredTiming {
    /// The sweep over the measured durations (zero for a command that never started).
    let sweep: TimingSweep
    /// The critical path, by position, of the commands on it that started.
    let criticalPath: [Int]

    /// Analyses the measured durations.
    ///
    /// - Parameters:
    ///   - graph: The run's dependency graph.
    ///   - durations: Each command's measured duration in nanoseconds, `nil` if it never started.
    ///   - milestone: The position of the command whose end counts instead of the whole run's.
    /// - Complexity: O(commands + edges).
    init(graph: DependencyGraph, durations: [Int64?], milestone: Int? = nil) {
        let sweep = TimingSweep(graph: graph, durations: durations.map { $0 ?? 0 }, milestone: milestone)
        // Commands that never started (skipped after a failure, cancelled first, not requested) took no time and
        // are not on the path; what runs after one of them (an order-only edge) can still be.
        self.sweep = sweep
        criticalPath = sweep.criticalPath.filter { durations[$0] != nil }
    }

    /// How much later the command at `position` could have finished without delaying the end.
    func slack(_ position: Int) -> Duration {
        .nanoseconds(sweep.latestStart(position) - sweep.earliestStart[position])
    }
}
