import Synchronization

/// A flag raised once and read from any thread: `startup down` asked for the run's end.
final class RaisedFlag: Sendable {
    private let raised = Atomic(false)

    /// Raises the flag.
    func raise() {
        raised.store(true, ordering: .relaxed)
    }

    /// Whether it was raised.
    var isRaised: Bool {
        raised.load(ordering: .relaxed)
    }
}
