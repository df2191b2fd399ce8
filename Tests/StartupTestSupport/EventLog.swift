import StartupSupport

/// Records what commands do, in one global order, from any task.
public final class EventLog: Sendable {
    /// What a command did.
    public enum Entry: Hashable, Sendable {
        case started(Int)
        case finished(Int)
    }

    private struct State {
        var entries: [Entry] = []
        var running = 0
        var maxRunning = 0
    }

    private let state = Locked(State())

    /// An empty log.
    public init() {}

    /// Records that command `index` started.
    public func start(_ index: Int) {
        state.withLock { state in
            state.entries.append(.started(index))
            state.running += 1
            state.maxRunning = max(state.maxRunning, state.running)
        }
    }

    /// Records that command `index` finished.
    public func finish(_ index: Int) {
        state.withLock { state in
            state.entries.append(.finished(index))
            state.running -= 1
        }
    }

    /// Every entry, in the order recorded.
    public var entries: [Entry] { state.withLock { $0.entries } }
    /// The most commands running at once.
    public var maxRunning: Int { state.withLock { $0.maxRunning } }
}
