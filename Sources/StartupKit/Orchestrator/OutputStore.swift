import StartupSupport

/// The outputs of the commands of one run, by position, written once each by the command's own
/// task and read by its dependents.
///
/// The slots are made when the first output is stored, so a run whose commands return nothing
/// (`Void`) allocates and clears nothing.
final class OutputStore: Sendable {
    private let count: Int
    private let values: Locked<[(any Sendable)?]>

    /// Creates an empty store for `count` commands.
    init(count: Int) {
        self.count = count
        values = Locked([])
    }

    /// Records the output of the command at `position`.
    func store(_ value: any Sendable, at position: Int) {
        precondition(position >= 0 && position < count, "an output stored outside the run's commands")
        values.withLock { values in
            if values.isEmpty { values = [(any Sendable)?](repeating: nil, count: count) }
            values[position] = value
        }
    }

    /// The output of the command at `position`, or `nil` if it produced none.
    func value(at position: Int) -> (any Sendable)? {
        values.withLock { values in values.isEmpty ? nil : values[position] }
    }
}
