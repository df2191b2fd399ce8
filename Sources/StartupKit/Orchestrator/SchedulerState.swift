/// Where a run stands, as one value: what each phase needs lives in its case, so no count or
/// flag can disagree with the phase (attempts in flight only while running or stopping, a
/// report only once settled). The settled cases are boxed, so the state a running run reads
/// and writes on every decision is a few words.
///
/// ```
/// notStarted ─► running ─► stopping ─► settled ─► finished
///                  ▲   └────────────────►  │
///                  └───────────────────────┘ (a request after a settlement that was not stopped)
/// ```
enum SchedulerState: Sendable, Hashable {
    /// ``SchedulerStateMachine/begin(at:cancelled:)`` has not been called.
    case notStarted
    /// Commands start as they become ready.
    case running(Running)
    /// Nothing more starts; the attempts in flight are ending.
    case stopping(Stopping)
    /// Nothing runs and every wanted command has ended. Unless stopped or cancelled since, a
    /// request runs again.
    indirect case settled(Settlement)
    /// Settled, reported and closed, and nothing serves: the run is over.
    indirect case finished(Settlement)

    /// A running run's attempts.
    struct Running: Sendable, Hashable {
        /// Attempts handed to workers and not yet ended (retries waiting for their delay included).
        var busy = 0
        /// Of those, the attempts of blocking commands.
        var blockingBusy = 0
        /// A worker has been woken or asked for and has not come yet, so no second one is needed.
        var wakePending = false
    }

    /// A stopping run: why, and the attempts still ending.
    struct Stopping: Sendable, Hashable {
        /// Why the run stopped.
        let reason: StopReason
        /// Attempts handed to workers and not yet ended.
        var busy: Int
    }

    /// One settlement of the run.
    struct Settlement: Sendable, Hashable {
        /// Why the run stopped before it settled, if it did.
        let reason: StopReason?
        /// The time of the input that settled it, in nanoseconds from the start of the run.
        let at: Int64
        /// Which settlement this is, from 1: a report is for one settlement.
        let number: Int
        /// The report, once the owner has made it.
        var report: StartupReport? = nil
        /// The run was cancelled after it settled: what is requested now ends cancelled.
        var cancelledSince = false

        /// Whether a request runs again (else what it wants ends cancelled).
        var acceptsRequests: Bool { reason == nil && !cancelledSince }
    }
}
