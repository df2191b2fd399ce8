/// What happened to one module during a delivery or a shutdown, with its timing.
///
/// Offsets count from the start of the run (for the run's shutdown) or from the creation of the
/// `StartupLifecycle` (for its deliveries and shutdown), so each report lies on one timeline.
public struct ModuleCallReport: Sendable {
    /// The command the module is attached to.
    public let module: CommandID
    /// How the call ended.
    public let status: ModuleCallStatus
    /// When the call began; `nil` if it never began (cancelled first).
    public let startOffset: Duration?
    /// When the call returned or timed out; `nil` if it never began.
    public let endOffset: Duration?

    /// From the start of the call to its end; zero if it never began.
    public var duration: Duration {
        guard let startOffset, let endOffset else { return .zero }
        return endOffset - startOffset
    }
}
