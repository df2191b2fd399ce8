import StartupKit
import StartupPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine's thread. Each turn takes what other threads posted (in one lock), takes in the children the launch
/// threads made, makes the requested spawns or hands them to the launch threads, stops the cancelled ones, runs the
/// queued jobs, then collects exits (sleeping in the wait set when nothing else was posted) and reaps them, resuming
/// their tasks.
///
/// What to signal, reap and resume, and when, is decided by ``ChildStops``; the loop reads the clock and `/proc` for
/// it and performs its actions. Signalling and reaping happen only here, so a group is signalled only while its leader
/// is unreaped (running or a zombie), when its pid and process-group id cannot have been reused.
struct EngineLoop {
    let engine: ProcessEngine
    /// The threads that make the spawns when more children run than there are processors.
    private let launchThreads: LaunchThreads
    /// Spawns handed to the launch threads and not taken in yet, by token; `stopped` when a stop came meanwhile.
    private var launching: [UInt64: (request: SpawnRequest, marker: String?, stopped: Bool)] = [:]
    /// Launches whose exit the wait set reported before the launch itself arrived (a launch thread adds the pidfd,
    /// then hands the launch over): reaped as soon as it does.
    private var earlyExits: Set<UInt64> = []
    /// The decision core of the loop, with the engine's tasks as waiters.
    private typealias Stops = ChildStops<
        ProcessTree, CheckedContinuation<ChildExit, Never>, StopWatcher, ContinuousClock.Instant
    >
    /// The running children and their stops: what to signal, reap and resume, and when.
    private var stops = Stops(start: .now)
    /// `startup` is the child subreaper: exited orphans are reaped after every exit of a command, and at each
    /// round of housekeeping while none exits (`--keep-running` may wait for hours). A sweep is one `waitid`.
    private var reapsOrphans = false
    /// An exited child a sweep found that no child taken in explains, with the launches that were in flight then:
    /// it is one of theirs not taken in yet, or an orphan once they have all been taken in. Not reaped meanwhile, so
    /// its pid is not reused.
    private var unexplainedExit: (pid: pid_t, launches: Set<UInt64>)? = nil
    /// How often the loop sweeps for exited orphans and trims the capture files of running children, at most.
    private static let housekeepingInterval = Duration.milliseconds(100)
    /// When housekeeping is next due.
    private var nextHousekeeping = ContinuousClock.now
    private let clock = ContinuousClock()

    init(engine: ProcessEngine) {
        self.engine = engine
        launchThreads = LaunchThreads(count: Self.launchThreadCount, engine: engine)
    }

    /// Two threads make spawns: one child execs while the next is being set up, and the loop never waits for either.
    private static let launchThreadCount = 2

    /// Runs forever. Each turn registers the children the launch threads made, makes the new spawn requests or hands
    /// them to those threads (in the order they came), applies stops, runs the queued jobs, and reaps the exits.
    mutating func run() -> Never {
        while true {
            let batch = engine.inbox.withLock { $0.take() }
            // The sticky flags count on every turn, also one that brings nothing else: a second
            // interrupt posted on its own must not wait for the next exit to be applied.
            if batch.reapsOrphans && !reapsOrphans {
                reapsOrphans = true
                sweep()
            }
            if batch.killsAtOnce && !stops.killsAtOnce { perform(stops.killAtOnce(now: clock.now, snapshot: ProcessTree.snapshot)) }
            register(batch.launched)
            if unexplainedExit != nil { sweep() }  // the launch it waits for may be among those just taken in
            var exits: [(token: UInt64, error: Int32)]
            let wake: EngineWaitSet.Wake
            if batch.isEmpty {
                // Nothing runs: no launch thread may come to close the used capture files (`--keep-running`).
                if stops.children.isEmpty && launching.isEmpty { CaptureFilePool.shared.closeRetired() }
                wake = engine.waitSet.wait(timeoutMilliseconds: sleepLimit())
                engine.inbox.withLock { $0.sleeping = false }
                exits = wake.exited.map { ($0, 0) }
            } else {
                for request in batch.spawns { start(request) }
                if !batch.stops.isEmpty { stop(batch.stops) }
                if !batch.jobs.isEmpty {
                    runJobs(batch.jobs)
                    for request in engine.inbox.withLock({ $0.takeSpawns() }) { start(request) }
                }
                wake = engine.waitSet.wait(timeoutMilliseconds: 0)
                exits = batch.exits + wake.exited.map { ($0, 0) }
            }
            if !exits.isEmpty { reap(exits) }
            if wake.childSignalled || (reapsOrphans && !exits.isEmpty) { sweep() }
            keepHouse()
            perform(stops.escalateOverdueStops(now: clock.now, snapshot: ProcessTree.snapshot))
            perform(stops.watchLingeringStops(now: clock.now, snapshot: ProcessTree.snapshot))
            if !batch.stopWatchers.isEmpty { stopEveryChild(for: batch.stopWatchers) }
            perform(stops.releaseStopWatchers(launchesPending: !launching.isEmpty))
        }
    }

    /// Performs what the decision core decided, in order: the signals, closes, reaps and resumptions.
    private mutating func perform(_ actions: [Stops.Action]) {
        for action in actions {
            switch action {
            case .signalGroup(let target, let signal): _ = kill(target, signal)
            case .signalTree(let tree, let signal, let group): tree.signal(signal, outsideGroup: group)
            case .closeTree(let tree): tree.close()
            case .closeDescriptor(let descriptor): _ = closeDescriptor(descriptor)
            case .reap(let token, let pid): perform(reapLeader(token, pid: pid))
            case .resume(let waiter, let exit): waiter.resume(returning: exit)
            case .tellRemaining(let watcher, let count, let longestGrace): watcher.onRemaining(count, longestGrace)
            case .release(let watcher): watcher.done.resume()
            }
        }
    }

    /// Reaps the exited leader `pid` of the child `token` (a zombie, so this returns at once) and tells the core how
    /// it ended.
    private mutating func reapLeader(_ token: UInt64, pid: pid_t) -> [Stops.Action] {
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, 0)
        } while result == -1 && errno == EINTR
        if result == -1 { return stops.leaderLost(token, errno: errno) }
        return stops.leaderReaped(token, waitStatus: status)
    }

    /// Runs the jobs of tasks that prefer the engine, in order.
    private func runJobs(_ jobs: [UnownedJob]) {
        guard !jobs.isEmpty else { return }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            let executor = engine.asUnownedTaskExecutor()
            for job in jobs { job.runSynchronously(on: executor) }
        }
    }

    /// Makes a requested spawn, or hands it to the launch threads when more children run than there are
    /// processors (see ``spawnsItself``).
    private mutating func start(_ request: SpawnRequest) {
        let marker = ProcessTree.marker(forSpawn: request.token, of: request.spec)
        let launch = LaunchThreads.Launch(request: request, marker: marker)
        launching[request.token] = (request, marker, false)
        guard spawnsItself else { return launchThreads.submit(launch) }
        register([LaunchThreads.spawn(launch, engine: engine)])
        CaptureFilePool.shared.replenish()
    }

    /// Whether the loop makes the next spawn itself: while the children running or being launched, this one
    /// included, are no more than the processors, as with `-j 2` on two. Then the loop has few exits to reap during
    /// a spawn, and handing the spawn to a launch thread would cost two thread wake-ups on the path from one
    /// command's exit to the next command's start. With more children than processors, the launch threads let the
    /// loop reap while children exec side by side.
    private var spawnsItself: Bool {
        stops.children.count + launching.count <= ProcessorCount.online
    }

    /// Takes in the children the launch threads made, stopping at once those whose task was cancelled meanwhile and
    /// reaping those whose exit came first; a spawn failure resumes its task.
    private mutating func register(_ launches: [LaunchedChild]) {
        var stopped: [UInt64] = []
        var exited: [(token: UInt64, error: Int32)] = []
        for launch in launches {
            guard let (request, marker, wasStopped) = launching.removeValue(forKey: launch.token) else {
                // Never happens (each launch arrives once); if it did, its pidfd is not left in the wait set.
                if launch.pidfd >= 0 {
                    engine.waitSet.remove(pidfd: launch.pidfd)
                    _ = closeDescriptor(launch.pidfd)
                }
                continue
            }
            let pid: pid_t
            switch launch.result {
            case .failure(let failure):
                request.waiter.resume(returning: ChildExit(termination: failure.termination, cancellation: nil))
                continue
            case .success(let spawned):
                pid = spawned
            }
            request.onSpawned?()
            if !launch.exitWakesLoop {
                let engine = engine
                let token = request.token
                ExitWatcher.watchOnThread(pid) { error in engine.post { $0.exits.append((token, error)) } }
            }
            let child = Stops.Child(
                pid: pid, isForeground: request.spec.foreground, pidfd: launch.pidfd, waiter: request.waiter,
                captureDescriptor: request.spec.output == .capture ? request.captureDescriptor : nil, gracePeriod: request.gracePeriod,
                signalsWhenStopped: request.signalsWhenStopped, tree: ProcessTree(leader: pid, marker: marker))
            stops.childStarted(child, token: request.token)
            if wasStopped { stopped.append(request.token) }
            if earlyExits.remove(request.token) != nil { exited.append((request.token, 0)) }
        }
        if !stopped.isEmpty { stop(stopped) }
        if !exited.isEmpty { reap(exited) }
    }

    /// Takes in the launches that have arrived; of `tokens`, those still to come wake the loop when they do.
    private mutating func registerArrivals(awaiting tokens: some Sequence<UInt64>) {
        register(engine.inbox.withLock { $0.takeLaunched(awaiting: tokens) })
    }

    /// Stops the children of cancelled tasks (see ``ChildStops/stop(_:now:snapshot:)``); a launch not made yet is
    /// withdrawn and its task resumed, one underway is stopped when it arrives. Tokens of finished children are
    /// ignored.
    private mutating func stop(_ tokens: [UInt64]) {
        let inLaunch = Set(tokens.filter { launching[$0] != nil })
        if !inLaunch.isEmpty {
            for launch in launchThreads.withdraw(inLaunch) {
                launching[launch.request.token] = nil
                launch.request.waiter.resume(returning: .cancelledBeforeStart(launch.request.spec))
            }
            let underway = inLaunch.filter { launching[$0] != nil }
            for token in underway { launching[token]?.stopped = true }
            if !underway.isEmpty { registerArrivals(awaiting: underway) }
        }
        perform(stops.stop(tokens, now: clock.now, snapshot: ProcessTree.snapshot))
    }

    /// Stops every child and launch, and tells `watchers` what is left, if anything; they are resumed once
    /// nothing is.
    private mutating func stopEveryChild(for watchers: [StopWatcher]) {
        stop(stops.children.keys.sorted() + Array(launching.keys))
        perform(stops.addStopWatchers(watchers, launches: launching.count, now: clock.now))
    }

    /// Reaps exited children and resumes their tasks (see ``ChildStops/childrenExited(_:snapshot:)``); the trees of
    /// stopped ones are found in `processes` if given, else in a snapshot taken for them. An exit seen before its
    /// launch arrived is reaped once it has.
    private mutating func reap(_ exits: [(token: UInt64, error: Int32)], processes given: [ProcessTree.Entry]? = nil) {
        let early = exits.map(\.token).filter { launching[$0] != nil }
        if !early.isEmpty {
            earlyExits.formUnion(early)
            registerArrivals(awaiting: early)  // Reaps those that have arrived; the others wake the loop when they do.
        }
        // A reaped pid may be reused: an unexplained exit with it is no longer the one that was seen.
        if let seen = unexplainedExit?.pid, exits.contains(where: { stops.children[$0.token]?.pid == seen }) {
            unexplainedExit = nil
        }
        perform(stops.childrenExited(exits) { given ?? ProcessTree.snapshot() })
    }

    /// Reaps the exited children `waitid` shows, one at a time: the engine's own when the wait set reads SIGCHLD
    /// (otherwise it stops at one, whose pidfd or watcher reports it), and orphans adopted as the child subreaper.
    /// An exit that no child taken in explains may be a launch's that has not been taken in: it waits for those
    /// launches (see `unexplainedExit`).
    private mutating func sweep() {
        // One look at `/proc` for all the stopped children a sweep reaps (a stop of hundreds ends in one sweep).
        var processes: [ProcessTree.Entry]? = nil
        while let pid = firstExitedChild() {
            if stops.token(ofPid: pid) == nil, !launching.isEmpty {
                // Take in the launches that have arrived; the others wake the loop when they do.
                register(engine.inbox.withLock { $0.takeLaunched(awaiting: launching.keys) })
            }
            if let token = stops.token(ofPid: pid) {
                // With SIGCHLD read (``ProcessEngine/ownEveryChild()``) every exit is found here; else by its pidfd.
                guard engine.waitSet.readsChildSignals else { return }
                if processes == nil, stops.children[token]?.signal != nil { processes = ProcessTree.snapshot() }
                reap([(token, 0)], processes: processes)
            } else if isOrphan(pid) {
                var status: Int32 = 0
                _ = waitpid(pid, &status, WNOHANG)
            } else {
                return
            }
        }
        unexplainedExit = nil
    }

    /// The pid of an exited child not reaped yet, if there is one.
    private func firstExitedChild() -> pid_t? {
        var info = siginfo_t()
        guard waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return nil }
        let pid = info.childPid
        return pid > 0 ? pid : nil
    }

    /// Whether the exited child `pid`, which no child taken in explains, is an orphan: once every launch that was in
    /// flight when it was first seen has been taken in (a child started later cannot be it). Until then it is
    /// remembered in `unexplainedExit`.
    private mutating func isOrphan(_ pid: pid_t) -> Bool {
        var launches = Set(launching.keys)
        if let seen = unexplainedExit, seen.pid == pid { launches.formIntersection(seen.launches) }
        unexplainedExit = launches.isEmpty ? nil : (pid, launches)
        return launches.isEmpty
    }

    /// Whether there is housekeeping to do: orphans to reap, or running children's output to trim, counting the
    /// launches not taken in yet (their arrival does not wake the loop; the next round takes them in).
    private var needsHousekeeping: Bool {
        reapsOrphans || !launching.isEmpty || stops.children.values.contains { $0.captureDescriptor != nil }
    }

    /// Reaps exited orphans and trims the capture files of running children to their tails, when due. Called every
    /// turn: between rounds it costs one clock reading.
    private mutating func keepHouse() {
        let now = clock.now
        guard now >= nextHousekeeping else { return }
        nextHousekeeping = now + Self.housekeepingInterval
        if reapsOrphans { sweep() }
        for child in stops.children.values {
            if let descriptor = child.captureDescriptor { CaptureFile.trimToTail(descriptor) }
        }
    }

    /// Milliseconds until the nearest deadline of the core or the next housekeeping (rounded up), or -1 for
    /// neither.
    private func sleepLimit() -> Int32 {
        let deadlines = [stops.nextDeadline, needsHousekeeping ? nextHousekeeping : nil].compactMap { $0 }
        guard let deadline = deadlines.min() else { return -1 }
        let remaining = clock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(clamping: seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}

extension siginfo_t {
    /// The pid `waitid` filled in.
    fileprivate var childPid: pid_t {
        #if canImport(Glibc)
            _sifields._sigchld.si_pid
        #else
            si_pid
        #endif
    }
}
