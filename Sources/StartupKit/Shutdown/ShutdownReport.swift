/// The outcome and timing of a shutdown (``StartupRun/shutdown(modules:stopTimeout:)``, or the
/// `StartupLifecycle` library's): how each module's and service's stop ended and when it ran.
public struct ShutdownReport: Sendable {
    /// How a shutdown ended.
    ///
    /// Complete: a shutdown succeeds, fails or is cancelled; why is in its modules. No case will be
    /// added before a major version, so a `switch` over it may list every case without a `default`.
    public enum Status: String, Sendable, Hashable {
        /// Every module's stop returned.
        case succeeded
        /// At least one stop threw or timed out; every other module was still stopped.
        case failed
        /// The shutdown was cancelled; modules not stopped by then were not stopped.
        case cancelled
    }

    /// How the shutdown ended.
    public let status: Status
    /// One report per active module, in the order their stops began; modules never stopped
    /// (the shutdown was cancelled first) come last, with status `.cancelled`.
    public let modules: [ModuleCallReport]
    /// Modules attached to commands that did not succeed at start-up, in declaration order:
    /// they never started, so they were not stopped.
    public let notStarted: [CommandID]
    /// When the shutdown began, from the creation of the lifecycle.
    public let startOffset: Duration
    /// When the last stop returned or timed out.
    public let endOffset: Duration

    /// From the start of the shutdown to its end.
    public var wallTime: Duration { endOffset - startOffset }

    /// The stops that threw or timed out, in the order of ``modules``.
    public var failures: [ModuleCallReport] {
        modules.filter {
            switch $0.status {
            case .failed, .timedOut: true
            case .succeeded, .cancelled: false
            }
        }
    }

    /// The commands whose modules were stopped, in the order their stops began.
    public var stopOrder: [CommandID] { modules.filter { $0.startOffset != nil }.map(\.module) }

    /// The report of the module attached to `module`, or `nil` if it was not due to stop.
    ///
    /// - Complexity: O(modules).
    public subscript(module: CommandID) -> ModuleCallReport? {
        modules.first { $0.module == module }
    }
}
