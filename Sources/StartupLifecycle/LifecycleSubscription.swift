import StartupKit

/// One kind of event or request a ``LifecycleModule`` handles, with its handler.
///
/// ```swift
/// var subscriptions: [LifecycleSubscription] {
///     [
///         .on(DidEnterBackground.self) { _ in await session.pause() },
///         .respond(to: OpenURL.self, priority: .high) { request in
///             request.url.hasPrefix("app://settings") ? true : nil
///         },
///     ]
/// }
/// ```
public struct LifecycleSubscription: Sendable {
    enum Handler: Sendable {
        /// Handles an event of the subscribed type (handed over erased; others are ignored).
        case event(@Sendable (any Sendable) async throws -> Void)
        /// Answers a request of the subscribed type, or returns `nil` to pass it on.
        case request(priority: CommandPriority, @Sendable (any Sendable) async throws -> (any Sendable)?)
    }

    /// The subscribed event or request type.
    let type: ObjectIdentifier
    /// The type's name, for reports and observers.
    let typeName: String
    let handler: Handler

    /// Subscribes to events of type `type`.
    ///
    /// - Parameters:
    ///   - type: The event type; events of other types, even related ones, are not delivered.
    ///   - handler: Called once per event posted while the module is active. If it throws, the
    ///     delivery report records the error and the event still reaches the other subscribers.
    public static func on<Event: LifecycleEvent>(
        _ type: Event.Type, perform handler: @escaping @Sendable (Event) async throws -> Void
    ) -> LifecycleSubscription {
        LifecycleSubscription(
            type: ObjectIdentifier(type), typeName: String(describing: type),
            handler: .event { event in
                guard let event = event as? Event else { return }
                try await handler(event)
            })
    }

    /// Joins the chain of responsibility for requests of type `type`.
    ///
    /// - Parameters:
    ///   - type: The request type.
    ///   - priority: Handlers with a higher priority are asked first; among equal priorities,
    ///     the plan's declaration order of their commands decides.
    ///   - handler: Returns the answer, which ends the chain, or `nil` to pass the request to the
    ///     next handler. If it throws, the chain ends and ``StartupLifecycle/ask(_:)`` throws a
    ///     ``LifecycleError`` with code ``LifecycleError/Code/handlerFailed``.
    public static func respond<Request: LifecycleRequest>(
        to type: Request.Type, priority: CommandPriority = .normal,
        with handler: @escaping @Sendable (Request) async throws -> Request.Response?
    ) -> LifecycleSubscription {
        LifecycleSubscription(
            type: ObjectIdentifier(type), typeName: String(describing: type),
            handler: .request(priority: priority) { request in
                guard let request = request as? Request else { return nil }
                return try await handler(request).map { $0 as any Sendable }
            })
    }
}
