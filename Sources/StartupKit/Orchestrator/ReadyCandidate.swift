/// A ready command in the scheduler's queue. While a task waits for a command, the command and
/// its unfinished ancestors are *urgent*: they go ahead of every other ready command, in
/// critical-path-first order among themselves (their priorities aside), and return to their
/// ``ReadyKey`` order when the wait ends.
///
/// An urgent command is queued twice, once urgent and once by its key; the copy that is no longer
/// true (the command started, or its wait ended) is dropped when it comes to the top.
struct ReadyCandidate: Comparable, Sendable {
    /// The command's key.
    let key: ReadyKey
    /// Whether this copy stands for a task's wait.
    let isUrgent: Bool

    /// The command's position in the plan.
    var position: Int { key.position }

    /// `lhs` should start before `rhs`.
    static func < (lhs: ReadyCandidate, rhs: ReadyCandidate) -> Bool {
        if lhs.isUrgent != rhs.isUrgent { return lhs.isUrgent }
        guard lhs.isUrgent else { return lhs.key < rhs.key }
        if lhs.key.remainingPath != rhs.key.remainingPath { return lhs.key.remainingPath > rhs.key.remainingPath }
        return lhs.key.position < rhs.key.position
    }

    /// Equal when the same copy of the same command.
    static func == (lhs: ReadyCandidate, rhs: ReadyCandidate) -> Bool {
        lhs.key.position == rhs.key.position && lhs.isUrgent == rhs.isUrgent
    }
}
