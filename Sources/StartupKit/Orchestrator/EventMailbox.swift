/// A run's events waiting for its one delivery task: appended in the order the scheduler decides
/// them, taken in batches, so observers see every event in order and never on the scheduler's
/// path. A plain value, changed under the scheduler's lock; the listener is an opaque token the
/// shell resumes after leaving it.
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

    private var listening: Listening
    private var pending: [StartupEvent] = []
    /// Whether events are kept for a listener; a plain flag because it is read on every
    /// scheduling decision, where copying the enum (and its listener) showed in profiles.
    let isEnabled: Bool

    /// Creates a mailbox; a disabled one drops every event (a run without observers).
    init(enabled: Bool) {
        listening = enabled ? .away : .disabled
        isEnabled = enabled
    }

    /// Appends an event. Events appended after ``close()`` are a programmer error.
    mutating func append(_ event: StartupEvent) {
        switch listening {
        case .disabled: return
        case .away, .waiting: pending.append(event)
        case .closed: preconditionFailure("event appended after the mailbox was closed")
        }
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

    /// What to resume the waiting listener with, if it waits and events came.
    mutating func handOver() -> (Listener, [StartupEvent]?)? {
        guard !pending.isEmpty, case .waiting(let listener) = listening else { return nil }
        listening = .away
        return (listener, takePending())
    }

    private mutating func takePending() -> [StartupEvent] {
        defer { pending = [] }
        return pending
    }
}

extension EventMailbox: Sendable where Listener: Sendable {}
extension EventMailbox.Listening: Sendable where Listener: Sendable {}
