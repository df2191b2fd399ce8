import StartupKit
import StartupSupport

/// A clock for tests whose time moves only when the test advances it. Give it to
/// ``StartupKit/StartupOrchestrator`` and the run's offsets, timeouts, retry delays, wait
/// timeouts, event batches and cancellation grace all follow it: no real time passes, nothing
/// is flaky.
///
/// ```swift
/// let clock = ManualClock()
/// let run = StartupOrchestrator(plan, clock: clock).start()
/// await clock.waitUntilCommandsSleep()   // every command in flight sleeps on the clock
/// clock.advance(by: .milliseconds(400))  // every deadline up to then passes, in order
/// let report = await run.report()
/// ```
///
/// A test drives a run with two calls. ``waitUntilCommandsSleep()`` returns once every attempt
/// in flight of every run on the clock is suspended on it (the command sleeps, or waits out its
/// retry delay): the run can go no further until time moves. ``advance(by:)`` then moves time,
/// deadline by deadline: the run's own timers (timeouts, the cancellation grace, waits' limits)
/// fire at their deadlines, on the advancing thread, before ``advance(by:)`` returns, and
/// sleeping tasks are resumed earliest first.
///
/// A cancelled run needs no time: ``StartupKit/StartupRun/cancel()`` then
/// ``StartupKit/StartupRun/report()`` returns as soon as the commands in flight have returned
/// from their cancellation. Only a command that ignores cancellation waits for the run's
/// cancellation grace, which passes when the test advances the clock by it.
///
/// Blocking commands (``StartupKit/BlockingStartupCommand``) run on threads of their own and
/// cannot sleep on this clock: their offsets, timeouts and graces follow it, but while one runs,
/// ``waitUntilCommandsSleep()`` waits for it to return. A blocking command that waits for the
/// test (a gate it opens later) is driven with ``sleepers(atLeast:)`` and ``advance(by:)``
/// instead. A service counts as in flight until it is ready.
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

    /// What waits for a deadline: a sleeping task, or a run's timer.
    private enum Waiting {
        /// A task in ``sleep(until:tolerance:)``; `isAttempt` when it does a run's attempt.
        case sleeper(CheckedContinuation<Void, any Error>, isAttempt: Bool)
        /// A run's timer, called at the deadline by whoever advances the clock.
        case timer(@Sendable () -> Void)
    }

    private struct Entry {
        let deadline: Instant
        let waiting: Waiting
    }

    private struct State {
        var now = Instant(offset: .zero)
        /// Sleepers and timers by id, which orders those of one deadline.
        var entries: [Int: Entry] = [:]
        /// Sleep ids cancelled before they were stored.
        var cancelledEarly: Set<Int> = []
        var nextID = 0
        /// Sleepers that do a run's attempt.
        var attemptSleepers = 0
        /// Each run's attempts in flight, as of its latest decision reported.
        var runs: [Int: (decision: UInt64, attempts: Int)] = [:]
        var attemptsInFlight = 0
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var sleepWatchers: [CheckedContinuation<Void, Never>] = []

        /// Whether every attempt in flight sleeps on the clock.
        var commandsSleep: Bool { attemptSleepers >= attemptsInFlight }

        /// The watchers whose condition holds now, removed.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            var satisfied: [CheckedContinuation<Void, Never>] = []
            if !watchers.isEmpty {
                let count = entries.count
                satisfied = watchers.filter { $0.count <= count }.map(\.continuation)
                watchers.removeAll { $0.count <= count }
            }
            if commandsSleep, !sleepWatchers.isEmpty {
                satisfied += sleepWatchers
                sleepWatchers = []
            }
            return satisfied
        }

        /// Removes the entry `id`, if it waits still.
        mutating func remove(_ id: Int) -> Entry? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            if case .sleeper(_, isAttempt: true) = entry.waiting { attemptSleepers -= 1 }
            return entry
        }
    }

    /// Guards the time, the sleepers and timers, the runs' attempts in flight and who waits for
    /// them; continuations are resumed, and timers called, after leaving it.
    private let state = Locked(State())

    /// Creates a clock at time zero.
    public init() {}

    /// The current time.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: a manual clock is exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks sleep on the clock now, and how many timers of runs wait for a deadline.
    public var sleeperCount: Int { state.withLock { $0.entries.count } }

    /// Suspends until the clock is advanced to `deadline` (at once if it has been), or the task
    /// is cancelled.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let isAttempt = RunActivity.isAttempt
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock { state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledEarly.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.entries[id] = Entry(deadline: deadline, waiting: .sleeper(continuation, isAttempt: isAttempt))
                    if isAttempt { state.attemptSleepers += 1 }
                    return (nil, state.satisfiedWatchers())
                }
                for watcher in watchers { watcher.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let entry = state.withLock { state -> Entry? in
                guard let entry = state.remove(id) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return entry
            }
            if case .sleeper(let continuation, _)? = entry?.waiting { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Moves time forward by `duration`, deadline by deadline: each sleeper and each run's timer
    /// whose deadline comes by then, earliest first (in the order they began waiting when their
    /// deadlines are equal), with the clock at its deadline. A run's timer runs on the calling
    /// thread before this returns, and so does a timer it arms that falls due by then (a
    /// timeout's cancellation grace, say); a sleeping task is resumed, and goes on by itself.
    ///
    /// - Complexity: O(*n*) for each deadline passed, where *n* is the number of sleepers and timers.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "time does not go back")
        let target = state.withLock { $0.now.advanced(by: duration) }
        while let due = takeEarliest(dueBy: target) {
            switch due {
            case .sleeper(let continuation, _): continuation.resume()
            case .timer(let action): action()
            }
        }
    }

    /// Returns once every attempt in flight of every run on this clock sleeps on it (in the
    /// command, or in its retry delay), or no attempt is in flight: the runs can go no further
    /// until the test advances the clock (or opens a gate, or cancels). The runs' own timers
    /// are not counted; a blocking command, which cannot sleep on the clock, is waited for
    /// until it returns, and so is a service until it is ready.
    public func waitUntilCommandsSleep() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let asleep = state.withLock { state -> Bool in
                if state.commandsSleep { return true }
                state.sleepWatchers.append(continuation)
                return false
            }
            if asleep { continuation.resume() }
        }
    }

    /// Returns once at least `count` tasks sleep on the clock, the runs' own timers (timeouts,
    /// graces, waits' limits) included, so a test advances time only after the code under test
    /// has started waiting for it. To drive a run, ``waitUntilCommandsSleep()`` needs no count.
    public func sleepers(atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.entries.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Removes and returns the earliest sleeper or timer due by `target`, moving the clock to its
    /// deadline; with none left, moves the clock to `target` and returns `nil`.
    private func takeEarliest(dueBy target: Instant) -> Waiting? {
        state.withLock { state -> Waiting? in
            let due = state.entries.filter { $0.value.deadline <= target }
            guard let (id, entry) = due.min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }) else {
                state.now = max(state.now, target)
                return nil
            }
            _ = state.remove(id)
            state.now = max(state.now, entry.deadline)
            return entry.waiting
        }
    }
}

extension ManualClock: RunDrivingClock {
    /// Calls `action` when the clock is advanced past `delay` from now, or soon in a task of its
    /// own if `delay` is not positive.
    package func timer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> RunTimer {
        guard delay > .zero else {
            let task = Task { action() }
            return RunTimer(cancel: task.cancel)
        }
        let (id, watchers) = state.withLock { state in
            defer { state.nextID += 1 }
            state.entries[state.nextID] = Entry(deadline: state.now.advanced(by: delay), waiting: .timer(action))
            return (state.nextID, state.satisfiedWatchers())
        }
        for watcher in watchers { watcher.resume() }
        return RunTimer { [state] in _ = state.withLock { $0.remove(id) } }
    }

    /// Numbers the runs on this clock.
    package func runBegan() -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.runs[state.nextID] = (0, 0)
            return state.nextID
        }
    }

    /// Keeps the run's latest count of attempts in flight.
    package func attemptsInFlight(_ count: Int, decision: UInt64, ofRun run: Int) {
        let watchers = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard let known = state.runs[run], known.decision < decision else { return [] }
            state.attemptsInFlight += count - known.attempts
            state.runs[run] = (decision, count)
            return state.satisfiedWatchers()
        }
        for watcher in watchers { watcher.resume() }
    }
}
