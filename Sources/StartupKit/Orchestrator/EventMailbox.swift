/// A run's events waiting for its one delivery task: appended in the order the scheduler decides
/// them, taken in batches, so observers see every event in order and never on the scheduler's
/// path. A plain value, changed under the scheduler's lock; the listener is an opaque token the
/// shell resumes after leaving it.
///
/// With a batch window, a waiting listener is woken at most once per window: events that come
/// sooner after the last wake wait for the window's end (the shell sets a timer, then flushes),
/// so a busy run wakes its observers' task dozens of times a second, not once per command. The
/// run's end and a service ending by itself are handed over at once.
struct EventMailbox<Listener> {
    /// What the listener gets when it comes for events.
    enum Take {
        /// These events, in order.
        case events([StartupEvent])
        /// Nothing now: the listener was stored and is handed the next events.
        case wait
        /// The run is over and every event was delivered.
        case end
    }

    fileprivate enum Listening {
        /// Nobody listens: events are not kept.
        case disabled
        /// The listener is delivering, or has not come yet.
        case away
        /// The listener waits for the next events.
        case waiting(Listener)
        /// The last event was appended; after the pending ones, the listener ends.
        case closed
    }

    /// What ``handOver(at:)`` decided.
    enum HandOver {
        /// Nothing to do: no events, or no waiting listener.
        case none
        /// Resume the listener with these events.
        case deliver(Listener, [StartupEvent])
        /// Flush at this time (the end of the window); no flush was due before.
        case flush(at: Duration)
    }

    private var listening: Listening
    private var pending: [StartupEvent] = []
    /// Whether events are kept for a listener; a plain flag because it is read on every
    /// scheduling decision, where copying the enum (and its listener) showed in profiles.
    let isEnabled: Bool
    /// The least time between two wakes of the listener; zero for none.
    private let window: Duration
    /// When the listener was last woken with events.
    private var lastWake: Duration?
    /// When a flush is due, if one is.
    private var flushDue: Duration?
    /// A pending event is handed over at once, whatever the window.
    private var hasUrgent = false
    /// Whether ``appendRunFinishedOnce(_:)`` has appended the start-up's end.
    private var announcedRunFinished = false

    /// Creates a mailbox; a disabled one drops every event (a run without observers).
    ///
    /// - Parameter window: The least time between two wakes of a waiting listener; zero wakes
    ///   it for every decision's events.
    init(enabled: Bool, window: Duration = .zero) {
        listening = enabled ? .away : .disabled
        isEnabled = enabled
        self.window = window
    }

    /// Appends an event. Events appended after ``close()`` are a programmer error.
    mutating func append(_ event: StartupEvent) {
        switch listening {
        case .disabled: return
        case .away, .waiting: pending.append(event)
        case .closed: preconditionFailure("event appended after the mailbox was closed")
        }
        switch event {
        case .runFinished, .serviceEnded: hasUrgent = true
        case .runStarted, .commandStarted, .commandRetrying, .commandFinished: break
        }
    }

    /// Appends the start-up's end (``StartupEvent/runFinished(_:)``) the first time only: a run
    /// that settles again (a later request) is not announced again.
    mutating func appendRunFinishedOnce(_ report: StartupReport) {
        guard !announcedRunFinished else { return }
        announcedRunFinished = true
        append(.runFinished(report))
    }

    /// The listener comes for events.
    mutating func take(_ listener: Listener) -> Take {
        switch listening {
        case .disabled:
            return .end
        case .waiting:
            preconditionFailure("a second listener")
        case .away:
            if pending.isEmpty {
                listening = .waiting(listener)
                return .wait
            }
            return .events(takePending())
        case .closed:
            return pending.isEmpty ? .end : .events(takePending())
        }
    }

    /// No more events will come after those appended so far. Returns what to resume a waiting
    /// listener with: the last events, or `nil` for the end.
    mutating func close() -> (Listener, [StartupEvent]?)? {
        switch listening {
        case .disabled, .closed:
            return nil
        case .away:
            listening = .closed
            return nil
        case .waiting(let listener):
            listening = .closed
            return (listener, pending.isEmpty ? nil : takePending())
        }
    }

    /// What to do for the waiting listener, if it waits and events came: wake it, or, within
    /// the window of its last wake, flush at the window's end.
    mutating func handOver(at now: Duration) -> HandOver {
        guard !pending.isEmpty, case .waiting(let listener) = listening else { return .none }
        if !hasUrgent, let lastWake, now - lastWake < window {
            guard flushDue == nil else { return .none }
            let due = lastWake + window
            flushDue = due
            return .flush(at: due)
        }
        listening = .away
        self.lastWake = now
        return .deliver(listener, takePending())
    }

    /// The window is over: what to resume the waiting listener with, if it waits and events came.
    mutating func flush(at now: Duration) -> (Listener, [StartupEvent])? {
        flushDue = nil
        guard !pending.isEmpty, case .waiting(let listener) = listening else { return nil }
        listening = .away
        lastWake = now
        return (listener, takePending())
    }

    private mutating func takePending() -> [StartupEvent] {
        hasUrgent = false
        defer { pending = [] }
        return pending
    }
}

extension EventMailbox: Sendable where Listener: Sendable {}
extension EventMailbox.Listening: Sendable where Listener: Sendable {}
