/// Figures derived from a run's commands, shared by the live ``StartupReport`` and the report a
/// later process reads back from disk (StartupManifest's `RunRecord`).
package enum RunFigures {
    /// The achieved parallelism: the sum of durations divided by the wall time; 0 for no wall time.
    package static func parallelism(total: Duration, wall: Duration) -> Double {
        let wall = wall / .nanoseconds(1)
        return wall > 0 ? (total / .nanoseconds(1)) / wall : 0
    }

    /// The commands ordered by start; those that never started last, in declaration order.
    ///
    /// - Complexity: O(*n* log *n*).
    package static func byStart<Command>(_ commands: [Command], start: (Command) -> Duration?) -> [Command] {
        commands.enumerated().sorted { lhs, rhs in
            switch (start(lhs.element), start(rhs.element)) {
            case let (left?, right?): (left, lhs.offset) < (right, rhs.offset)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}
