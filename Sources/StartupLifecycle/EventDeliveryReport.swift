import StartupKit

/// The outcome and timing of one ``StartupLifecycle/post(_:)``: which modules received the
/// event, in what order, and how each call ended.
public struct EventDeliveryReport: Sendable {
    /// The event type's name, such as `MemoryPressure`.
    public let event: String
    /// The order and concurrency the event was delivered with.
    public let delivery: LifecycleDelivery
    /// One report per subscriber, in the order the calls began; subscribers that were never
    /// called (the delivery was cancelled first) come last, with status `.cancelled`. Empty when
    /// the event was posted after shutdown had begun.
    public let calls: [ModuleCallReport]
    /// When the delivery began, from the creation of the lifecycle.
    public let startOffset: Duration
    /// When the last call returned.
    public let endOffset: Duration

    /// From the start of the delivery to its end.
    public var wallTime: Duration { endOffset - startOffset }

    /// The calls that did not succeed (threw or were cancelled), in the order of ``calls``.
    public var failures: [ModuleCallReport] { calls.filter { !$0.status.isSuccess } }

    /// The commands whose modules received the event, in the order the calls began.
    public var receivers: [CommandID] { calls.filter { $0.startOffset != nil }.map(\.module) }

    /// The report of the module attached to `module`, or `nil` if it did not subscribe.
    ///
    /// - Complexity: O(subscribers).
    public subscript(module: CommandID) -> ModuleCallReport? {
        calls.first { $0.module == module }
    }
}
