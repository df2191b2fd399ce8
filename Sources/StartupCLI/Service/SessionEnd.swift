import StartupKit

/// Why a run that holds services (or keeps running, or runs a command after its start-up) ends:
/// whichever comes first wins.
final class SessionEnd: Sendable {
    /// What ended the session.
    enum Reason: Sendable {
        /// SIGINT, SIGTERM, SIGHUP, a closed standard output, or a cancelled caller.
        case interrupted
        /// A service ended by itself.
        case serviceEnded(ServiceEndedError)
        /// The command after `--` exited.
        case commandExited
    }

    /// Guards the first reason and the task waiting for it.
    private let state = Locked<(reason: Reason?, waiter: CheckedContinuation<Reason, Never>?)>((nil, nil))

    /// Ends the session for `reason`, unless it has ended already.
    func end(_ reason: Reason) {
        let waiter = state.withLock { state -> CheckedContinuation<Reason, Never>? in
            guard state.reason == nil else { return nil }
            state.reason = reason
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: reason)
    }

    /// The reason it ended, once it has. One waiter at a time.
    func wait() async -> Reason {
        await withCheckedContinuation { continuation in
            let reason = state.withLock { state -> Reason? in
                if state.reason == nil { state.waiter = continuation }
                return state.reason
            }
            if let reason { continuation.resume(returning: reason) }
        }
    }

    /// The reason, if it has ended.
    var reason: Reason? { state.withLock { $0.reason } }
}

/// Ends the session when a service ends by itself.
struct ServiceEndWatcher: StartupObserver {
    let sessionEnd: SessionEnd

    func observe(_ event: StartupEvent) {
        if case .serviceEnded(let error, _) = event { sessionEnd.end(.serviceEnded(error)) }
    }
}
