import StartupKit
import StartupSupport

/// Tells the waits of a stop that the user wants out now (an interrupt after the first, see
/// ``ProcessEngine/killAtOnce()``): a stop line, otherwise waited for up to its bound, is killed at once (the engine
/// kills the services and commands being stopped itself). Once sent it stays sent, as the engine's SIGKILL at once does: a wait
/// that begins later is cut short as it begins.
package final class KillAtOnceNotice: Sendable {
    /// Guards whether the notice was sent, the actions of the waits in progress by registration, and the next
    /// registration's number.
    private let state = Locked<(sent: Bool, next: UInt64, actions: [UInt64: @Sendable () -> Void])>((false, 0, [:]))

    /// A notice not sent yet.
    init() {}

    /// Whether the notice was sent.
    var isSent: Bool {
        state.withLock { $0.sent }
    }

    /// Sends the notice: marks it sent, runs `whenMarked`, then the action of every wait in progress (outside the
    /// lock), each once. What `whenMarked` ends (the engine's kills) can let a stop go on to its next wait only once
    /// that wait would find the notice sent.
    func send(whenMarked: () -> Void = {}) {
        let actions = state.withLock { state in
            state.sent = true
            defer { state.actions = [:] }
            return state.actions.values
        }
        whenMarked()
        for action in actions { action() }
    }

    /// Runs `body`; `action` is run if the notice is sent meanwhile, or first if it was sent already (at most once;
    /// a notice sent as `body` returns may run it just after, so it must be harmless then, as cancelling a finished
    /// task is).
    package func whileWaiting<Value>(
        for body: () async -> Value, onNotice action: @escaping @Sendable () -> Void
    ) async -> Value {
        let registration: UInt64? = state.withLock { state in
            guard !state.sent else { return nil }
            state.next += 1
            state.actions[state.next] = action
            return state.next
        }
        guard let registration else {
            action()
            return await body()
        }
        defer { state.withLock { _ = $0.actions.removeValue(forKey: registration) } }
        return await body()
    }
}
