import StartupSupport

/// The streams reading a run's events through ``StartupRun/events``, fed by the run's delivery
/// task: each gets the events delivered after it subscribed, and ends with the run.
final class EventSubscribers: Sendable {
    private struct Registry {
        var streams: [Int: AsyncStream<StartupEvent>.Continuation] = [:]
        var nextID = 0
        var isFinished = false
    }

    /// Guards the registry only; streams are yielded to and finished after leaving it.
    private let registry = Locked(Registry())

    /// A new stream of the events from now on; already finished if the run is over.
    func subscribe() -> AsyncStream<StartupEvent> {
        let (stream, continuation) = AsyncStream<StartupEvent>.makeStream()
        let id = registry.withLock { registry -> Int? in
            guard !registry.isFinished else { return nil }
            defer { registry.nextID += 1 }
            registry.streams[registry.nextID] = continuation
            return registry.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.registry.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// The streams subscribed now.
    func current() -> [AsyncStream<StartupEvent>.Continuation] {
        registry.withLock { Array($0.streams.values) }
    }

    /// The run is over: every stream ends, and later ones end at once.
    func finish() {
        let streams = registry.withLock { registry in
            registry.isFinished = true
            defer { registry.streams.removeAll() }
            return Array(registry.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
