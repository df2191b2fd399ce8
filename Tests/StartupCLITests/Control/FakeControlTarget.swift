import StartupKit
import StartupSupport

@testable import StartupCLI

/// A run that stays up, faked: fixed rows, each call recorded, answers set by the test, and streams the test
/// feeds and finishes by hand.
final class FakeControlTarget: ControlTarget {
    /// A call the run got.
    enum Call: Equatable, Sendable {
        case restart([CommandID], cascade: Bool)
        case stop([CommandID], cascade: Bool)
        case start([CommandID])
        case down
        case logs([CommandID], lines: Int?)
        case followLogs([CommandID])
        case events
    }

    /// What the test set and what the run got.
    struct State: Sendable {
        var rows: [ControlRow]
        var calls: [Call] = []
        /// What `restart`, `stop`, `start` and `down` say, and return.
        var said: [String] = []
        var succeeds = true
        var kept: [ControlLogLine] = []
        var followers: [AsyncStream<ControlLogLine>.Continuation] = []
        var listeners: [AsyncStream<ControlEvent>.Continuation] = []
        /// What held restarts wait for, and what opens it.
        var gate: AsyncStream<Void>?
        var opener: AsyncStream<Void>.Continuation?
        /// How many moves ended with their task cancelled.
        var cancelledMoves = 0
    }

    let state: Locked<State>
    /// Gets a value each time a stream (logs followed, events) is subscribed to.
    let subscriptions: AsyncStream<Void>
    private let subscribed: AsyncStream<Void>.Continuation
    /// Gets a value each time a stream's subscription ends (its client left, or the stream finished).
    let endedSubscriptions: AsyncStream<Void>
    private let subscriptionEnded: AsyncStream<Void>.Continuation

    init(rows: [ControlRow] = FakeControlTarget.stackRows) {
        state = Locked(State(rows: rows))
        (subscriptions, subscribed) = AsyncStream<Void>.makeStream()
        (endedSubscriptions, subscriptionEnded) = AsyncStream<Void>.makeStream()
    }

    /// How many moves ended with their task cancelled.
    var cancelledMoves: Int { state.withLock { $0.cancelledMoves } }

    /// The calls so far.
    var calls: [Call] { state.withLock { $0.calls } }

    /// Sets what the moves say and return.
    func answer(saying lines: [String], succeeds: Bool = true) {
        state.withLock {
            $0.said = lines
            $0.succeeds = succeeds
        }
    }

    func rows() async -> [ControlRow] { state.withLock { $0.rows } }

    private func move(_ call: Call, say: @Sendable (String) -> Void) -> Bool {
        let cancelled = Task.isCancelled
        let (lines, succeeds) = state.withLock { state in
            state.calls.append(call)
            if cancelled { state.cancelledMoves += 1 }
            return (state.said, state.succeeds)
        }
        for line in lines { say(line) }
        return succeeds
    }

    func restart(_ ids: [CommandID], cascade: Bool, say: @escaping @Sendable (String) -> Void) async -> Bool {
        if let gate = state.withLock({ $0.gate }) {
            // A long restart: it says it began, then waits until the test lets it go on.
            subscribed.yield()
            for await _ in gate { break }
        }
        return move(.restart(ids, cascade: cascade), say: say)
    }

    /// Makes the next restarts wait for `release()`.
    func holdRestarts() {
        let (gate, opener) = AsyncStream<Void>.makeStream()
        state.withLock {
            $0.gate = gate
            $0.opener = opener
        }
    }

    /// Lets held restarts go on.
    func release() {
        state.withLock { $0.opener }?.yield()
    }

    func stop(_ ids: [CommandID], cascade: Bool, say: @escaping @Sendable (String) -> Void) async -> Bool {
        move(.stop(ids, cascade: cascade), say: say)
    }

    func start(_ ids: [CommandID], say: @escaping @Sendable (String) -> Void) async -> Bool {
        move(.start(ids), say: say)
    }

    func down(say: @escaping @Sendable (String) -> Void) async -> Bool {
        move(.down, say: say)
    }

    func logs(_ ids: [CommandID], lines: Int?) async -> [ControlLogLine] {
        state.withLock { state in
            state.calls.append(.logs(ids, lines: lines))
            let chosen = state.kept.filter { ids.isEmpty || ids.contains($0.id) }
            guard let lines else { return chosen }
            var taken: [ControlLogLine] = []
            for id in Set(chosen.map(\.id)) {
                taken += chosen.filter { $0.id == id }.suffix(lines)
            }
            return chosen.filter { line in taken.contains(line) }
        }
    }

    func followLogs(_ ids: [CommandID]) -> AsyncStream<ControlLogLine> {
        let (stream, continuation) = AsyncStream<ControlLogLine>.makeStream()
        state.withLock { state in
            state.calls.append(.followLogs(ids))
            state.followers.append(continuation)
        }
        continuation.onTermination = { [subscriptionEnded] _ in subscriptionEnded.yield() }
        subscribed.yield()
        return stream
    }

    func events() -> AsyncStream<ControlEvent> {
        let (stream, continuation) = AsyncStream<ControlEvent>.makeStream()
        state.withLock { state in
            state.calls.append(.events)
            state.listeners.append(continuation)
        }
        continuation.onTermination = { [subscriptionEnded] _ in subscriptionEnded.yield() }
        subscribed.yield()
        return stream
    }

    /// Sends `line` to every follower of logs.
    func emit(_ line: ControlLogLine) {
        for follower in state.withLock({ $0.followers }) { follower.yield(line) }
    }

    /// Sends `event` to every listener.
    func emit(_ event: ControlEvent) {
        for listener in state.withLock({ $0.listeners }) { listener.yield(event) }
    }

    /// Ends every stream, as the run's end does.
    func end() {
        let (followers, listeners) = state.withLock { ($0.followers, $0.listeners) }
        for follower in followers { follower.finish() }
        for listener in listeners { listener.finish() }
    }

    /// The rows of a small stack: a database, a migration and an API.
    static let stackRows = [
        ControlRow(
            id: "database", kind: .service, state: .ready, pid: 4242, sinceMs: 183_000, readyMs: 317, restarts: 0, lastCheck: "log matched"),
        ControlRow(id: "migrate", kind: .command, state: .succeeded, pid: nil, sinceMs: 182_500, readyMs: nil, restarts: 0, lastCheck: nil),
        ControlRow(id: "api", kind: .service, state: .ready, pid: 4250, sinceMs: 2_410, readyMs: 212, restarts: 1, lastCheck: "http 200"),
    ]
}
