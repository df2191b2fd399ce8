import StartupSupport

/// An attempt of a blocking command under a timeout, started on the blocking pool with no worker
/// (``SchedulerAction/startBlocking(_:)``): the pool thread's return races the run's clock, as in
/// ``TimedAttempt``, and whichever decides the outcome reports it, on its own thread.
///
/// The work cannot be interrupted. When the time is up, the run's cancellation grace begins; if
/// the work has not returned by its end, the attempt is abandoned (its thread finishes on its own,
/// its output is never used). A stop (``stop()``) gives a running attempt the same grace, after
/// which it ends cancelled.
final class TimedBlockingAttempt: Sendable {
    private enum Phase: Sendable {
        /// The work runs within its time.
        case running
        /// The time is up: the grace runs.
        case timedOut
        /// The run stopped: the grace runs.
        case stopped
        /// The outcome is decided.
        case over
    }

    private struct State: Sendable {
        var phase = Phase.running
        /// The timers armed, cancelled once the outcome is decided.
        var timers: [RunTimer] = []
    }

    /// The attempt.
    let job: Job
    private let timeout: Duration
    private let context: StartupContext
    private let clock: StartedClock
    private let ended: @Sendable (AttemptOutcome) -> Void
    /// Guards the attempt's phase and timers only: timers are armed and cancelled, and the
    /// outcome reported, after leaving it.
    private let state = Locked(State())

    /// An attempt of `job` with `context`, which reports its outcome to `ended` once, from the
    /// thread that decides it.
    init(_ job: Job, timeout: Duration, context: StartupContext, clock: StartedClock, ended: @escaping @Sendable (AttemptOutcome) -> Void) {
        self.job = job
        self.timeout = timeout
        self.context = context
        self.clock = clock
        self.ended = ended
    }

    /// Starts the work on `pool` and the timeout on the run's clock.
    ///
    /// - Precondition: The command is blocking.
    func start(on pool: ThreadPool) {
        guard let body = context.plan.storage.commands[context.index].runBlocking else { preconditionFailure("not a blocking command") }
        pool.submit(body, for: context) { self.returned($0) }
        keep(clock.timer(after: timeout) { self.timeUp() })
    }

    /// The run stops: a running attempt gets the grace to return, then ends cancelled.
    func stop() {
        if leaveRunning(for: .stopped) { armGrace() }
    }

    private func returned(_ result: Result<any Sendable, any Error>) {
        switch decide() {
        case .running, .stopped: finish(AttemptRunner.store(result, of: context))
        case .timedOut: finish(.timedOut(timeout, abandoned: false))
        case .over: break  // Abandoned: its output is never used.
        }
    }

    private func timeUp() {
        if leaveRunning(for: .timedOut) { armGrace() }
    }

    private func graceOver() {
        switch decide() {
        case .timedOut: finish(.timedOut(timeout, abandoned: true))
        case .stopped: finish(.threw(CancellationError()))
        case .running, .over: break
        }
    }

    /// Moves a running attempt to `phase`; returns whether it was running.
    private func leaveRunning(for phase: Phase) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.phase = phase
            return true
        }
    }

    /// Ends the phase: returns the phase it was in, now `.over`.
    private func decide() -> Phase {
        state.withLock { state in
            defer { state.phase = .over }
            return state.phase
        }
    }

    private func armGrace() {
        keep(clock.timer(after: context.run.cancellationGrace) { self.graceOver() })
    }

    /// Keeps `timer` for cancelling once the outcome is decided, or cancels it if it is already.
    private func keep(_ timer: RunTimer) {
        let kept = state.withLock { state in
            guard state.phase != .over else { return false }
            state.timers.append(timer)
            return true
        }
        if !kept { timer.cancel() }
    }

    /// Cancels the timers and reports `outcome`.
    private func finish(_ outcome: AttemptOutcome) {
        let timers = state.withLock { state in
            defer { state.timers = [] }
            return state.timers
        }
        for timer in timers { timer.cancel() }
        ended(outcome)
    }
}
