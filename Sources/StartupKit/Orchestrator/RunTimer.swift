/// One of a run's own timers (a timeout, a cancellation grace, a wait's limit, an event flush):
/// an action the run's clock calls once its delay is over, unless the timer is cancelled first.
package struct RunTimer: Sendable {
    private let cancelAction: @Sendable () -> Void

    /// A timer that `cancel` stops.
    package init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = cancel
    }

    /// A timer that has fired or needs no stopping.
    package static let none = RunTimer {}

    /// Stops the timer: its action is not called if it has not been. Calling it again does nothing.
    package func cancel() {
        cancelAction()
    }
}
