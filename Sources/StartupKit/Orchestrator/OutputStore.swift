/// The outputs of the commands of one run, by position, written once each by the command's own
/// task and read by its dependents.
final class OutputStore: Sendable {
    private let values: Locked<[(any Sendable)?]>

    /// Creates an empty store for `count` commands.
    init(count: Int) {
        values = Locked([(any Sendable)?](repeating: nil, count: count))
    }

    /// Records the output of the command at `position`.
    func store(_ value: any Sendable, at position: Int) {
        values.withLock { $0[position] = value }
    }

    /// The output of the command at `position`, or `nil` if it produced none.
    func value(at position: Int) -> (any Sendable)? {
        values.withLock { $0[position] }
    }
}
