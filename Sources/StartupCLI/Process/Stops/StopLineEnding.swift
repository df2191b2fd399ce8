import StartupKit
import StartupSupport

/// The word a service's stop sends the process engine when the `stop` line it left the service to has ended: from
/// then on what is left of the service has its grace period to end by itself, then gets SIGTERM, and SIGKILL after a
/// further grace period. While the line runs the service has no time limit of the engine's: the line has its own
/// (`stopTimeout`, see `StopLine`).
package final class StopLineEnding: Sendable {
    /// Guards the child's token, once the engine has handed it out, and whether the line has ended.
    private let state = Locked<(token: UInt64?, ended: Bool)>((nil, false))

    /// A line that has not ended, for a child not spawned yet.
    package init() {}

    /// The engine handed out `token` for the child left to the line (before it posts the spawn).
    func bind(_ token: UInt64) {
        let ended = state.withLock { state in
            state.token = token
            return state.ended
        }
        if ended { Self.post(token) }
    }

    /// The line has ended (or was never run): the child's grace period begins. Calls after the first do nothing.
    package func lineEnded() {
        let token = state.withLock { state -> UInt64? in
            guard !state.ended else { return nil }
            state.ended = true
            return state.token
        }
        if let token { Self.post(token) }
    }

    /// Tells the engine that the line of the child `token` has ended.
    private static func post(_ token: UInt64) {
        ProcessEngine.shared.post { $0.stopLinesEnded.append(token) }
    }
}
