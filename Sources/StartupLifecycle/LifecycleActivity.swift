import StartupKit

/// Something a ``StartupLifecycle`` did, delivered to ``LifecycleObserver``s as it happens.
///
/// Offsets (`at`, `startOffset`) count from the creation of the lifecycle. Each delivery,
/// request and shutdown emits a `...Started` activity, then one `handler...` or `stop...` pair per
/// module, then a `...Finished` activity.
///
/// Activities are added as StartupKit grows (a minor version may add one): a `switch` over an
/// activity should have a `default`, so that code written against this version keeps compiling.
///
/// ```swift
/// func stopTime(_ activity: LifecycleActivity) -> Duration? {
///     switch activity {
///     case .stopFinished(_, _, let start?, let end): end - start
///     default: nil
///     }
/// }
/// ```
public enum LifecycleActivity: Sendable {
    /// An event is about to be delivered to `subscribers` active modules.
    case deliveryStarted(event: String, subscribers: Int, at: Duration)
    /// A request is about to go down a chain of `handlers` active modules.
    case requestStarted(request: String, handlers: Int, at: Duration)
    /// Shutdown began; `modules` active modules are due to stop.
    case shutdownStarted(modules: Int, at: Duration)
    /// A module's handler for an event or request (named by `event`) was called.
    case handlerStarted(CommandID, event: String, at: Duration)
    /// A module's handler returned or threw; `startOffset` is `nil` if it was never called.
    case handlerFinished(CommandID, event: String, status: ModuleCallStatus, startOffset: Duration?, at: Duration)
    /// A module's stop was called.
    case stopStarted(CommandID, at: Duration)
    /// A module's stop returned, threw or timed out; `startOffset` is `nil` if it never began.
    case stopFinished(CommandID, status: ModuleCallStatus, startOffset: Duration?, at: Duration)
    /// The delivery ended; the report is complete.
    case deliveryFinished(EventDeliveryReport)
    /// The request was answered by the module attached to `handledBy`, or by none (`nil`), or
    /// its chain ended with an error or a cancellation (also `nil`).
    case requestFinished(request: String, handledBy: CommandID?, at: Duration)
    /// Shutdown ended; the report is complete.
    case shutdownFinished(ShutdownReport)
}
