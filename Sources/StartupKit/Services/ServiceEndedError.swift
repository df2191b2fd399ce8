import StartupSupport

/// Why a service stopped serving without being asked to: it returned or threw before it was
/// ready (its attempt failed) or after (it is reported, and the run shuts down by default, unless
/// its ``RestartPolicy`` restarts it: then ``restart`` says when).
public struct ServiceEndedError: Error, Sendable, CustomStringConvertible {
    /// The service.
    public let service: CommandID
    /// Whether it had signalled ready.
    public let wasReady: Bool
    /// What it threw; `nil` if it returned.
    public let underlying: (any Error)?
    /// The restart that follows this end, as the service's ``RestartPolicy`` allows; `nil` when
    /// none does (the service has ended for good).
    public let restart: Restart?

    /// A restart of a service after it ended.
    public struct Restart: Sendable, Hashable {
        /// The restart, counted from 1 over the whole run.
        public let number: Int
        /// The restarts the policy allows in the run (``RestartPolicy/limit``).
        public let limit: Int
        /// How long the service waits before it is started again.
        public let delay: Duration

        /// Creates a restart's description.
        public init(number: Int, limit: Int, delay: Duration) {
            self.number = number
            self.limit = limit
            self.delay = delay
        }
    }

    /// Creates the error.
    public init(service: CommandID, wasReady: Bool, underlying: (any Error)?, restart: Restart? = nil) {
        self.service = service
        self.wasReady = wasReady
        self.underlying = underlying
        self.restart = restart
    }

    /// For example `service "database" ended by itself after it was ready: connection reset`,
    /// followed by `; restarting in 500ms (1 of 5)` when it is restarted.
    public var description: String {
        let when = wasReady ? "after it was ready" : "before it was ready"
        let how = underlying.map { ": \($0)" } ?? " (it returned)"
        let next = restart.map { "; restarting in \(DurationText.format($0.delay)) (\($0.number) of \($0.limit))" } ?? ""
        return "service \(MessageQuoting.quoted(service)) ended by itself \(when)" + how + next
    }
}
