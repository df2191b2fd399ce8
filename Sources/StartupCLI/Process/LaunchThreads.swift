import Dispatch
import StartupKit

/// The threads that call `posix_spawn` for the engine. A spawn holds its thread until the child has exec'd (a
/// third of a millisecond or more, even for `true`), so the engine's loop hands each spawn to one of these and
/// goes on reaping and scheduling meanwhile, and spawns of different commands proceed side by side on different
/// cores. Each result goes back to the loop through its inbox.
final class LaunchThreads: Sendable {
    /// One spawn to make.
    struct Launch: Sendable {
        /// The request, with its token and waiter.
        let request: SpawnRequest
        /// The environment entry marking what the child leaves behind (see `ProcessTree`).
        let marker: String?
    }

    /// Guards the spawns not taken by a thread yet, oldest first.
    private let pending = Locked<[Launch]>([])
    /// Counts the pending spawns; a thread waits on it for the next.
    private let available = DispatchSemaphore(value: 0)

    /// Starts `count` threads that post each spawn's result to `engine`.
    init(count: Int, engine: ProcessEngine) {
        for _ in 0..<count {
            DedicatedThread.run { [self] in serve(engine) }
        }
    }

    /// Queues a spawn for the next free thread.
    func submit(_ launch: Launch) {
        pending.withLock { $0.append(launch) }
        available.signal()
    }

    /// Takes back the spawns of `tokens` that no thread has taken yet (they will not be made).
    func withdraw(_ tokens: Set<UInt64>) -> [Launch] {
        pending.withLock { pending in
            let withdrawn = pending.filter { tokens.contains($0.request.token) }
            if !withdrawn.isEmpty { pending.removeAll { tokens.contains($0.request.token) } }
            return withdrawn
        }
    }

    /// A thread's loop: waits for a spawn, makes it, posts the pid or the failure.
    private func serve(_ engine: ProcessEngine) -> Never {
        while true {
            available.wait()
            // A withdrawn spawn leaves its count behind: nothing to take then.
            guard let launch = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            let request = launch.request
            let result = ChildLauncher.launch(
                request.spec, adding: launch.marker, captureDescriptor: request.captureDescriptor,
                directoryStrategy: request.directoryStrategy)
            engine.post { $0.launched.append((request.token, result)) }
        }
    }
}
