import StartupKit

/// A clock for tests whose time moves only when the test advances it. Give it to
/// ``StartupKit/StartupOrchestrator`` and the run's offsets, timeouts, retry delays, wait
/// timeouts and cancellation grace all follow it: no real time passes, nothing is flaky.
///
/// ```swift
/// let clock = ManualClock()
/// let run = StartupOrchestrator(plan, clock: clock).start()
/// await clock.sleepers(atLeast: 1)        // the timeout's timer is asleep
/// clock.advance(by: .milliseconds(400))   // it fires
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point in a manual clock's time: the time advanced since the clock was made.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock was made.
        public let offset: Duration

        /// Creates an instant at `offset` from the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        /// Sleep ids cancelled before they were stored.
        var cancelledEarly: Set<Int> = []
        var nextID = 0
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// Guards the time, the sleepers and who waits for sleepers; continuations are resumed
    /// after leaving it.
    private let state = Locked(State())

    /// Creates a clock at time zero.
    public init() {}

    /// The current time.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: a manual clock is exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks sleep on the clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock is advanced to `deadline` (at once if it has been), or the task
    /// is cancelled.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock { state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledEarly.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (nil, Self.satisfiedWatchers(&state))
                }
                for watcher in watchers { watcher.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline has come, earliest
    /// first.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "time does not go back")
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on the clock, so a test advances time only
    /// after the code under test has started waiting for it.
    public func sleepers(atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let satisfied = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return satisfied
    }
}
