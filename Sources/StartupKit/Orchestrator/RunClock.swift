/// A clock reduced to what a run needs, so the orchestrator need not be generic over it.
package struct RunClock: Sendable {
    private let makeStopwatch: @Sendable () -> @Sendable () -> Duration
    /// Suspends for a duration, throwing if the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void
    /// The clock as a test clock, which runs the run's timers itself; `nil` for any other.
    private let driving: (any RunDrivingClock)?

    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
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
        driving = clock as? any RunDrivingClock
    }

    /// Starts measuring: the returned clock's `elapsed` counts from now.
    package func started() -> StartedClock {
        StartedClock(elapsed: makeStopwatch(), sleep: sleep, driving: driving.map { ($0, $0.runBegan()) })
    }
}

/// A clock that measures from the start of a run.
package struct StartedClock: Sendable {
    /// The time since the run started.
    package let elapsed: @Sendable () -> Duration
    /// Suspends for a duration, throwing if the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void
    /// A test clock and the run's number on it; `nil` for any other clock.
    let driving: (clock: any RunDrivingClock, run: Int)?

    /// Calls `action` once `delay` has passed, unless the returned timer is cancelled first: on a
    /// test clock, by the clock itself as it is advanced past the deadline; on any other, from a
    /// task that sleeps meanwhile.
    func timer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> RunTimer {
        if let driving { return driving.clock.timer(after: delay, action) }
        let task = Task { [sleep] in
            guard (try? await sleep(delay)) != nil else { return }
            action()
        }
        return RunTimer(cancel: task.cancel)
    }

    /// Tells a test clock how many attempts are in flight after a decision; nothing otherwise.
    func attemptsInFlight(_ count: Int, decision: UInt64) {
        if let driving { driving.clock.attemptsInFlight(count, decision: decision, ofRun: driving.run) }
    }
}
