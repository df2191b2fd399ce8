/// When one watched command reloads: a pure state machine, fed the changes, the debounce timer and the
/// ends of reloads, and returning what to do. The shell (``Watcher``) holds it under a lock, arms the
/// timers and hands out the reloads; tests drive it input by input, with instants of their own.
///
/// A change arms the debounce; each change before it fires joins the batch and pushes the deadline to
/// `debounce` after it, up to ``longestWait`` after the first (so files written without a pause still
/// reload). When it fires, a reload starts with the batch. Changes while a reload runs are coalesced
/// into one batch, reloaded once the reload has ended and `debounce` has passed since their last change.
/// At most one timer is armed at a time: the shell arms one per ``Action/armTimer(_:)``.
struct ReloadQueue<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// What the shell does after an input.
    enum Action: Equatable, Sendable {
        /// Nothing.
        case none
        /// Arm the timer to fire at this instant (then feed ``ReloadQueue/timerFired(at:)``).
        case armTimer(Instant)
        /// Start a reload for these changes (then feed ``ReloadQueue/reloadEnded(at:)`` once it has ended).
        case startReload(ReloadBatch)
    }

    /// Changes waiting for their reload.
    private struct Pending: Sendable {
        var batch: ReloadBatch
        var first: Instant
        var last: Instant
    }

    private enum State: Sendable {
        /// No change waits and no reload runs.
        case idle
        /// Changes wait for the timer, which is armed.
        case debouncing(Pending)
        /// A reload runs; changes since it started wait for its end.
        case reloading(Pending?)
    }

    /// How long after its last change a batch waits for more.
    let debounce: Duration
    private var state = State.idle

    /// A queue with nothing waiting.
    init(debounce: Duration) {
        self.debounce = debounce
    }

    /// The longest a batch waits after its first change, however often files change: 10 × the debounce.
    var longestWait: Duration { debounce * 10 }

    /// Whether a reload runs.
    var isReloading: Bool {
        if case .reloading = state { return true }
        return false
    }

    /// A change of `batch`'s paths at `at`.
    mutating func change(_ batch: ReloadBatch, at: Instant) -> Action {
        switch state {
        case .idle:
            state = .debouncing(Pending(batch: batch, first: at, last: at))
            return .armTimer(at.advanced(by: debounce))
        case .debouncing(var pending):
            pending.batch.merge(batch)
            pending.last = max(pending.last, at)
            state = .debouncing(pending)
            return .none
        case .reloading(let pending):
            var next = pending ?? Pending(batch: ReloadBatch(), first: at, last: at)
            next.batch.merge(batch)
            next.last = max(next.last, at)
            state = .reloading(next)
            return .none
        }
    }

    /// The armed timer fired at `at`: the reload starts if the batch has waited long enough, or the timer is
    /// armed again for the rest.
    mutating func timerFired(at: Instant) -> Action {
        guard case .debouncing(let pending) = state else { return .none }
        let deadline = deadline(of: pending)
        guard at >= deadline else { return .armTimer(deadline) }
        state = .reloading(nil)
        return .startReload(pending.batch)
    }

    /// The reload that runs ended at `at` (however it went): the changes that came meanwhile, if any, are
    /// reloaded once their debounce has passed, at once if it has. Without a reload running, nothing.
    mutating func reloadEnded(at: Instant) -> Action {
        guard case .reloading(let pending) = state else { return .none }
        guard let pending else {
            state = .idle
            return .none
        }
        let deadline = deadline(of: pending)
        guard at < deadline else {
            state = .reloading(nil)
            return .startReload(pending.batch)
        }
        state = .debouncing(pending)
        return .armTimer(deadline)
    }

    /// `debounce` after the last change, at most ``longestWait`` after the first.
    private func deadline(of pending: Pending) -> Instant {
        min(pending.last.advanced(by: debounce), pending.first.advanced(by: longestWait))
    }
}
