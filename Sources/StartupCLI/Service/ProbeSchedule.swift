/// When a polled probe (`tcp`, `http`, `exec`) tries again: 1 ms after the first attempt, then twice as long
/// each time, never longer than the probe's interval.
///
/// Why: dependents must start within 10 ms of readiness, yet most services take tens or hundreds of
/// milliseconds to come up. Polling at the interval alone would add up to one interval (10 ms by default) of
/// lag; polling at 1 ms throughout would cost a connection attempt every millisecond for as long as a slow
/// service starts. The ramp gives a service that is up at once a sub-millisecond answer, and after a few
/// attempts settles at the interval, so the lag is never more than one interval and the cost at most one
/// attempt per interval. On top of it, `tcp` and `http` probes also try again at once whenever the service
/// writes output (servers usually print as they start listening; see `ServiceProbe`).
struct ProbeSchedule {
    /// The first wait.
    static let firstDelay = Duration.milliseconds(1)
    /// The longest wait.
    let interval: Duration
    private var next: Duration

    /// A schedule that backs off towards `interval`.
    init(interval: Duration) {
        self.interval = interval
        next = min(Self.firstDelay, interval)
    }

    /// The wait before the next attempt.
    mutating func nextDelay() -> Duration {
        defer { next = min(next * 2, interval) }
        return next
    }
}
