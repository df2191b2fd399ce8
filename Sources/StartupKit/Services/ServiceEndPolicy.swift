/// What a run does when one of its services ends by itself after it was ready.
///
/// Policies are added as StartupKit grows (a minor version may add one): a `switch` over a policy
/// should have a `default`, so that code written against this version keeps compiling.
///
/// ```swift
/// func keepsOthersRunning(_ policy: ServiceEndPolicy) -> Bool {
///     switch policy {
///     case .keepRunning: true
///     default: false
///     }
/// }
/// ```
public enum ServiceEndPolicy: Sendable, Hashable {
    /// Shuts the run down: the start-up is stopped if it is still going, and every other
    /// service is stopped in reverse dependency order (the default).
    case shutDown
    /// Reports it (``StartupEvent/serviceEnded(_:at:)``) and keeps the others running; the
    /// owner decides, for example by calling ``StartupRun/shutdown(modules:stopTimeout:)`` with its own
    /// modules.
    case keepRunning
}
