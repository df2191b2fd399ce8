import Dispatch
import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The threads that make the spawns (`ChildSpawn`) for the engine when more children run than there are processors.
/// A spawn holds its thread until the child has exec'd (a third of a millisecond or more, even for `true`), so the
/// engine's loop then hands each spawn to one of these and goes on reaping and scheduling meanwhile, and spawns of
/// different commands proceed side by side on different cores. A thread also puts the child's pidfd in the engine's wait set
/// (unless the set reads SIGCHLD), then hands the launch to the loop through its inbox without waking it: the child's
/// exit will. A launch whose spawn is to be announced (`onSpawned`: a service's `after` probe counts from it) wakes the
/// loop, so the announcement never waits for the loop's next turn.
final class LaunchThreads: Sendable {
    /// One spawn to make. A class: the loop's decision core and its actions pass a launch around several times per
    /// child, and a request has many reference-counted fields, so a copy is one retain rather than one per field.
    final class Launch: Sendable {
        /// The request, with its token and waiter.
        let request: SpawnRequest
        /// The environment entry marking what the child leaves behind (see `ProcessTree`).
        let marker: String?

        init(request: SpawnRequest, marker: String?) {
            self.request = request
            self.marker = marker
        }
    }

    /// Guards the spawns not taken by a thread yet, oldest first, and whether the threads were started.
    private let pending = Locked<(launches: [Launch], threadsStarted: Bool)>(([], false))
    /// Counts the pending spawns; a thread waits on it for the next.
    private let available = DispatchSemaphore(value: 0)
    /// How many threads serve the launches.
    private let count: Int
    /// Whom the threads hand each launch over to.
    private let engine: ProcessEngine

    /// Threads that hand each launch over to `engine`, `count` of them, started with the first launch: a run that
    /// never has more children than processors (`-j 2` on two) never starts them, nor stops them at its exit.
    init(count: Int, engine: ProcessEngine) {
        self.count = count
        self.engine = engine
    }

    /// Queues a spawn for the next free thread, starting the threads the first time.
    func submit(_ launch: Launch) {
        let startsThreads = pending.withLock { pending in
            pending.launches.append(launch)
            defer { pending.threadsStarted = true }
            return !pending.threadsStarted
        }
        if startsThreads {
            for _ in 0..<count {
                DedicatedThread.run { [self] in serve() }
            }
        }
        available.signal()
    }

    /// Takes back the spawns of `tokens` that no thread has taken yet (they will not be made).
    func withdraw(_ tokens: Set<UInt64>) -> [Launch] {
        pending.withLock { pending in
            let withdrawn = pending.launches.filter { tokens.contains($0.request.token) }
            if !withdrawn.isEmpty { pending.launches.removeAll { tokens.contains($0.request.token) } }
            return withdrawn
        }
    }

    /// Makes the spawn of `launch`, on the calling thread: one of these threads, or the engine's when it spawns
    /// itself (see `EngineLoop`).
    static func spawn(_ launch: Launch, engine: ProcessEngine) -> LaunchedChild {
        let request = launch.request
        let result = ChildLauncher.launch(
            request.spec, adding: launch.marker, captureDescriptor: request.captureDescriptor,
            directoryStrategy: request.directoryStrategy)
        let pidfd = watchExit(of: result, request: request, engine: engine)
        let started = if case .success = result { true } else { false }
        return LaunchedChild(
            token: request.token, result: result, pidfd: pidfd,
            exitWakesLoop: pidfd >= 0 || (started && engine.waitSet.readsChildSignals))
    }

    /// Opens the pidfd of a child just made and adds it to the engine's wait set, so its exit wakes the loop, which
    /// is not woken for the launch itself; -1 if the exit must be watched another way (see `ExitWatcher`).
    private static func watchExit(of result: Result<pid_t, SpawnFailure>, request: SpawnRequest, engine: ProcessEngine) -> Int32 {
        guard case .success(let pid) = result, request.exitStrategy == .automatic, engine.waitSet.watchesPidfds,
            let pidfdOpen = SpawnExtensions.pidfdOpen
        else { return -1 }
        let pidfd = pidfdOpen(pid, 0)  // pidfds are always close-on-exec
        guard pidfd >= 0 else { return -1 }
        guard engine.waitSet.add(pidfd: pidfd, token: request.token) else {
            _ = closeDescriptor(pidfd)
            return -1
        }
        return pidfd
    }

    /// A thread's loop: waits for a spawn, makes it, hands the pid or the failure to the loop.
    private func serve() -> Never {
        while true {
            available.wait()
            // A withdrawn spawn leaves its count behind: nothing to take then.
            guard let launch = pending.withLock({ $0.launches.isEmpty ? nil : $0.launches.removeFirst() }) else { continue }
            let launched = Self.spawn(launch, engine: engine)
            let announced = launch.request.onSpawned != nil
            if engine.inbox.withLock({ $0.arrive(launched, announced: announced) }) { engine.waitSet.wake() }
            // Off the path to the next spawn: this thread waits for the next launch anyway.
            CaptureFilePool.shared.replenish()
        }
    }
}
