import StartupSupport

/// The timer that flushes a run's held-back events (``EventMailbox``): at most one is armed, and
/// the run's end cancels it, whichever of the two comes first.
final class EventFlushTimer: Sendable {
    private enum State: Sendable {
        case idle
        case armed(RunTimer)
        /// The run is over: a timer armed now is cancelled at once.
        case finished
    }

    /// Guards the armed timer and whether the run is over.
    private let state = Locked(State.idle)

    /// Keeps `timer` as the one armed, or cancels it if the run is over. An earlier timer has
    /// flushed already: the state machine asks for no flush before the last one is done.
    func arm(_ timer: RunTimer) {
        let kept = state.withLock { state in
            guard case .finished = state else {
                state = .armed(timer)
                return true
            }
            return false
        }
        if !kept { timer.cancel() }
    }

    /// The run is over: the armed timer, if any, is cancelled, and so is any armed later.
    func finish() {
        let armed = state.withLock { state -> RunTimer? in
            defer { state = .finished }
            guard case .armed(let timer) = state else { return nil }
            return timer
        }
        armed?.cancel()
    }
}
