import Synchronization

/// Hands what is sent to every stream subscribed at that moment, until ``finish()``: a run's events to each
/// ``StartupRun/events`` reader, and the CLI's changes and followed output to each client that asked for them.
/// Streams are yielded to and finished outside the lock.
package final class Broadcast<Element: Sendable>: Sendable {
    private struct Subscribers: Sendable {
        var streams: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var next: UInt64 = 0
        var isFinished = false
    }

    /// Guards the subscribed streams and whether the broadcast has finished.
    private let subscribers = Locked(Subscribers())
    /// How many streams are subscribed, kept beside them: read without the lock on every command's output, where
    /// nobody listens in most runs.
    private let count = Atomic(0)

    /// A broadcast with no subscriber yet.
    package init() {}

    /// A stream of everything sent from now on; it finishes with the broadcast (at once if it has), and a stream
    /// whose reader stopped reading is dropped. A slow reader keeps at most `buffer` elements, all when `nil`.
    package func subscribe(buffer: Int? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: buffer.map { .bufferingNewest($0) } ?? .unbounded)
        let key: UInt64? = subscribers.withLock { subscribers in
            guard !subscribers.isFinished else { return nil }
            defer { subscribers.next += 1 }
            subscribers.streams[subscribers.next] = continuation
            count.store(subscribers.streams.count, ordering: .relaxed)
            return subscribers.next
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            subscribers.withLock { subscribers in
                subscribers.streams[key] = nil
                count.store(subscribers.streams.count, ordering: .relaxed)
            }
        }
        return stream
    }

    /// Whether anyone listens: what nobody would get need not be made.
    package var hasSubscribers: Bool {
        count.load(ordering: .relaxed) > 0
    }

    /// The streams subscribed now, for a sender that must know who gets a batch before it sends it.
    package func current() -> [AsyncStream<Element>.Continuation] {
        subscribers.withLock { Array($0.streams.values) }
    }

    /// Sends `element` to every stream subscribed now.
    package func send(_ element: Element) {
        for stream in current() { stream.yield(element) }
    }

    /// Finishes every stream; later subscribers get a finished one.
    package func finish() {
        let streams = subscribers.withLock { subscribers in
            subscribers.isFinished = true
            count.store(0, ordering: .relaxed)
            defer { subscribers.streams = [:] }
            return Array(subscribers.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
