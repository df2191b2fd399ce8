/// What a ``StartupService`` calls once it is ready, with the output its dependents read.
///
/// Calling it starts the service's dependents at once. Only the first call counts; a call after
/// the service's time to ready ran out, or after its attempt ended, does nothing.
public struct ReadySignal<Output: Sendable>: Sendable {
    private let attempt: ServiceAttempt

    init(_ attempt: ServiceAttempt) {
        self.attempt = attempt
    }

    /// Signals that the service is ready, handing `output` to its dependents.
    public func callAsFunction(_ output: Output) {
        attempt.signalReady(output)
    }
}

extension ReadySignal where Output == Void {
    /// Signals that the service is ready.
    public func callAsFunction() {
        attempt.signalReady(())
    }
}
