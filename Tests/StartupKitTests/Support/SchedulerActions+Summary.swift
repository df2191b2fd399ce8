@testable import StartupKit

/// The scheduler's actions and state read as the tests assert them: which kinds of action an
/// input decided, and where the run stands in a few words.
extension SchedulerActions {
    /// Parked workers resumed, each with its step, in order.
    var resume: [(Worker, WorkerStep)] { compactMap { if case .resume(let worker, let step) = $0 { (worker, step) } else { nil } } }
    /// Blocking attempts started on the pool with no worker, in order.
    var startBlocking: [Job] { compactMap { if case .startBlocking(let job) = $0 { job } else { nil } } }
    /// Waits resolved, in order.
    var resolve: [(Waiter, WaitOutcome)] {
        compactMap { if case .resolve(let waiter, let outcome) = $0 { (waiter, outcome) } else { nil } }
    }
    /// The report handed to its readers, if it was.
    var report: (readers: [Reader], report: StartupReport)? {
        for case .handReport(let readers, let report) in self { return (readers, report) }
        return nil
    }
    /// The listener resumed, and with what, if it was.
    var deliver: (Listener, [StartupEvent]?)? {
        lazy.compactMap { if case .deliver(let listener, let events) = $0 { (listener, events) } else { nil } }.first
    }
    /// When a flush was asked for, if one was.
    var flushEvents: Duration? { lazy.compactMap { if case .flushEvents(let due) = $0 { due } else { nil } }.first }
    /// Whether one more worker was asked for.
    var spawnWorker: Bool { contains { if case .spawnWorker = $0 { true } else { false } } }
    /// Whether the attempts in flight are to be cancelled.
    var cancelWorkers: Bool { contains { if case .cancelWorkers = $0 { true } else { false } } }
    /// Whether the run settled and its report is to be made.
    var settled: Bool { contains { if case .makeReport = $0 { true } else { false } } }
    /// Whether the shutdown was asked for.
    var shutDown: Bool { contains { if case .shutDown = $0 { true } else { false } } }
    /// Whether the run is over.
    var finished: Bool { contains { if case .finish = $0 { true } else { false } } }
    /// The kinds of action, in order.
    var kinds: [String] {
        map { action in
            switch action {
            case .resume(_, let step): if case .exit = step { "exit worker" } else { "resume worker" }
            case .startBlocking: "start blocking"
            case .resolve: "resolve wait"
            case .handReport: "hand report"
            case .deliver: "deliver"
            case .flushEvents: "flush"
            case .spawnWorker: "spawn worker"
            case .cancelWorkers: "cancel workers"
            case .makeReport: "make report"
            case .shutDown: "shut down"
            case .finish: "finish"
            }
        }
    }
}

/// Where a run stands, in the terms the tests assert.
enum SchedulerPhase: Hashable {
    case notStarted
    case running(wakePending: Bool)
    case stopping(StopReason)
    /// Settled or finished, stopped for `reason` or not, at `at` nanoseconds.
    case ended(StopReason?, at: Int64)
}

extension SchedulerStateMachine {
    /// Where the run stands, in the terms the tests assert.
    var phase: SchedulerPhase {
        switch state {
        case .notStarted: .notStarted
        case .running(let running): .running(wakePending: running.wakePending)
        case .stopping(let stopping): .stopping(stopping.reason)
        case .settled(let settlement), .finished(let settlement): .ended(settlement.reason, at: settlement.at)
        }
    }

    /// Attempts in flight.
    var busy: Int {
        switch state {
        case .running(let running): running.busy
        case .stopping(let stopping): stopping.busy
        case .notStarted, .settled, .finished: 0
        }
    }
}
