/// Why a service stopped serving without being asked to: it returned or threw before it was
/// ready (its attempt failed) or after (it is reported, and the run shuts down by default).
public struct ServiceEndedError: Error, Sendable, CustomStringConvertible {
    /// The service.
    public let service: CommandID
    /// Whether it had signalled ready.
    public let wasReady: Bool
    /// What it threw; `nil` if it returned.
    public let underlying: (any Error)?

    /// Creates the error.
    public init(service: CommandID, wasReady: Bool, underlying: (any Error)?) {
        self.service = service
        self.wasReady = wasReady
        self.underlying = underlying
    }

    /// For example `service "database" ended by itself after it was ready: connection reset`.
    public var description: String {
        let when = wasReady ? "after it was ready" : "before it was ready"
        let how = underlying.map { ": \($0)" } ?? " (it returned)"
        return "service \(MessageQuoting.quoted(service)) ended by itself \(when)" + how
    }
}
