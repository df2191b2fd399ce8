import StartupKit

/// An event that wants an answer, such as "can you open this URL?", passed along a chain of
/// responsibility: handlers are asked in priority order until one answers.
///
/// ```swift
/// struct OpenURL: LifecycleRequest {
///     typealias Response = Bool
///     let url: String
/// }
/// switch try await lifecycle.ask(OpenURL(url: "app://settings")) {
/// case .handled(let opened, let module): print("\(module) opened it: \(opened)")
/// case .unhandled: print("nobody could open it")
/// }
/// ```
///
/// Handlers subscribe with ``LifecycleSubscription/respond(to:priority:with:)``.
public protocol LifecycleRequest: Sendable {
    /// What the handler that takes the request answers.
    associatedtype Response: Sendable
}
