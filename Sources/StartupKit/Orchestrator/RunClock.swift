/// A clock reduced to what a run needs, so the orchestrator need not be generic over it.
struct RunClock: Sendable {
    private let makeStopwatch: @Sendable () -> @Sendable () -> Duration
    /// Suspends for a duration, throwing if the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        if clock is ContinuousClock {
            // The default clock, read on every command's end: direct calls rather than the
            // `Clock` protocol's witnesses, since the public generic initialiser is not specialised.
            makeStopwatch = {
                let start = ContinuousClock.now
                return { start.duration(to: .now) }
            }
        } else {
            makeStopwatch = {
                let start = clock.now
                return { start.duration(to: clock.now) }
            }
        }
        sleep = { duration in try await clock.sleep(for: duration) }
    }

    /// Starts measuring: the returned clock's `elapsed` counts from now.
    func started() -> StartedClock {
        StartedClock(elapsed: makeStopwatch(), sleep: sleep)
    }
}

/// A clock that measures from the start of a run.
struct StartedClock: Sendable {
    /// The time since the run started.
    let elapsed: @Sendable () -> Duration
    /// Suspends for a duration, throwing if the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void
}
