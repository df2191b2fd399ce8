/// A clock that drives runs by hand in tests (StartupKitTesting's `ManualClock`): it calls the
/// run's own timers itself, at their deadlines as time is advanced, and learns how many attempts
/// each run has in flight, so that a test can wait until every one of them sleeps on the clock.
package protocol RunDrivingClock: Sendable {
    /// Calls `action` once the clock has reached `delay` from now (on the thread that advances
    /// the clock, in deadline order); the returned timer stops it.
    func timer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> RunTimer

    /// A new run uses the clock; returns the number its reports carry.
    func runBegan() -> Int

    /// After the run's decision number `decision`, `count` attempts are in flight (blocking ones
    /// included). Reports may arrive out of order: a later decision's report wins.
    func attemptsInFlight(_ count: Int, decision: UInt64, ofRun run: Int)
}

/// Marks the work of a run's attempts, so that a ``RunDrivingClock`` tells an attempt that sleeps
/// on it from the run's timers and from other tasks.
package enum RunActivity {
    /// Whether the current task does an attempt's work (the command, its retry delay).
    @TaskLocal package static var isAttempt = false
}
