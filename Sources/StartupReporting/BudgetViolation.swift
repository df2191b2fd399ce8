import StartupKit
import StartupSupport

/// A budget a run exceeded: the whole wall time's or one command's (see ``RunSettings``).
public struct BudgetViolation: Sendable, Hashable, CustomStringConvertible {
    /// The command that took too long; `nil` for the run's wall time.
    public let id: CommandID?
    /// The budget.
    public let budget: Duration
    /// What it took.
    public let actual: Duration

    /// Creates a violation.
    public init(id: CommandID?, budget: Duration, actual: Duration) {
        self.id = id
        self.budget = budget
        self.actual = actual
    }

    /// How much over budget.
    public var excess: Duration { actual - budget }

    /// `wall time 912ms exceeds its budget of 800ms by 112ms`, or the same for a command.
    public var description: String {
        let subject =
            id.map { "\(MessageQuoting.quoted($0)) took \(DurationText.format(actual)), over" }
            ?? "wall time \(DurationText.format(actual)) is over"
        return "\(subject) its budget of \(DurationText.format(budget)) by \(DurationText.format(excess))"
    }
}
