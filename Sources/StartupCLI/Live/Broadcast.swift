import StartupKit
import StartupSupport

/// Hands each value sent to every stream subscribed at that moment, until ``finish()``: the
/// events and the followed output of a run, to each client that asked for them.
final class Broadcast<Element: Sendable>: Sendable {
    private struct Subscribers: Sendable {
        var streams: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var next: UInt64 = 0
        var isFinished = false
    }

    /// Guards the subscribed streams and whether the broadcast has finished.
    private let subscribers = Locked(Subscribers())

    /// A stream of every value sent from now on; it finishes with the broadcast, and a stream
    /// whose reader stopped reading is dropped. A slow reader keeps at most `buffer` values.
    func subscribe(buffer: Int = 4096) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        let key: UInt64? = subscribers.withLock { subscribers in
            guard !subscribers.isFinished else { return nil }
            defer { subscribers.next += 1 }
            subscribers.streams[subscribers.next] = continuation
            return subscribers.next
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: key) }
        }
        return stream
    }

    /// Whether anyone listens: a value nobody would get need not be made.
    var hasSubscribers: Bool {
        subscribers.withLock { !$0.streams.isEmpty }
    }

    /// Sends `value` to every stream subscribed now.
    func send(_ value: Element) {
        let streams = subscribers.withLock { Array($0.streams.values) }
        for stream in streams { stream.yield(value) }
    }

    /// Finishes every stream; later subscribers get a finished one.
    func finish() {
        let streams = subscribers.withLock { subscribers in
            subscribers.isFinished = true
            defer { subscribers.streams = [:] }
            return Array(subscribers.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
