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
/// Who makes a spawn, what to take in, withdraw, signal, reap and resume, and when, is decided by
/// ``EngineStateMachine``; the loop reads the clock and `/proc` for it and performs its actions. The loop itself only
/// finds exited children (`waitid`) and reaps the orphans the state machine names. Signalling and reaping happen only
/// here, so a group is signalled only while its leader is unreaped (running or a zombie), when its pid and
/// process-group id cannot have been reused.
struct EngineLoop {
    let engine: ProcessEngine
    /// The threads that make the spawns when more children run than there are processors.
    private let launchThreads: LaunchThreads
    /// The state machine that decides for the loop, with the engine's spawns and tasks.
    private typealias Machine = EngineStateMachine<LaunchThreads.Launch, StopWatcher, ContinuousClock.Instant>
    /// The launches and running children and their stops: what to spawn, signal, reap and resume, and when.
    private var machine = Machine(start: .now)
    /// Emptied buffers of actions, one per level of nested decisions, reused so deciding allocates no array.
    private var spareActionBuffers: [[Machine.Action]] = []
    /// `startup` is the child subreaper: exited orphans are reaped after every exit of a command, and at each
    /// round of housekeeping while none exits (`--keep-running` may wait for hours). A sweep is one `waitid`.
    private var reapsOrphans = false
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
            if batch.killsAtOnce && !machine.killsAtOnce {
                let now = clock.now
                perform { $0.killAtOnce(now: now, snapshot: ProcessSnapshot.current, into: &$1) }
            }
            if !batch.launched.isEmpty {
                let clock = clock
                perform { $0.launchesArrived(batch.launched, now: { clock.now }, snapshot: ProcessSnapshot.current, into: &$1) }
            }
            if machine.unexplainedExit != nil { sweep() }  // the launch it waits for may be among those just taken in
            var exits: [(token: UInt64, error: Int32)]
            let wake: EngineWaitSet.Wake
            if batch.isEmpty {
                // Nothing runs: no launch thread may come to close the used capture files (`--keep-running`).
                if !machine.hasRunningChildren && !machine.launchesPending { CaptureFilePool.shared.closeRetired() }
                wake = engine.waitSet.wait(timeoutMilliseconds: sleepLimit())
                engine.inbox.withLock { $0.sleeping = false }
                exits = wake.exited.map { ($0, 0) }
            } else {
                for request in batch.spawns { start(request) }
                if !batch.stops.isEmpty {
                    let now = clock.now
                    perform { $0.stop(batch.stops, now: now, snapshot: ProcessSnapshot.current, into: &$1) }
                }
                if !batch.stopLinesEnded.isEmpty { machine.stopLinesEnded(batch.stopLinesEnded, now: clock.now) }
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
            // Most turns have no stop going: no clock reading then.
            if machine.hasKillDeadlines {
                let now = clock.now
                perform { $0.escalateOverdueStops(now: now, snapshot: ProcessSnapshot.current, into: &$1) }
            }
            if machine.hasLingeringStops {
                let now = clock.now
                perform { $0.watchLingeringStops(now: now, snapshot: ProcessSnapshot.current, into: &$1) }
            }
            if !batch.stopWatchers.isEmpty {
                let now = clock.now
                perform {
                    $0.stopEveryChild(for: batch.stopWatchers, now: now, snapshot: ProcessSnapshot.current, into: &$1)
                }
            }
            if machine.hasStopWatchers { perform { $0.releaseStopWatchers(into: &$1) } }
        }
    }

    /// Has the state machine decide (`decide` appends its actions to a buffer kept for reuse, so the common path
    /// allocates no array of actions), then performs what it decided, in order: the spawns, withdrawals, signals,
    /// closes, reaps and resumptions, reporting the outcome of those that need one (each report is decided and
    /// performed before the next action).
    private mutating func perform(_ decide: (inout Machine, inout [Machine.Action]) -> Void) {
        var actions = spareActionBuffers.popLast() ?? []
        decide(&machine, &actions)
        for action in actions {
            switch action {
            case .spawn(let launch):
                let launched = LaunchThreads.spawn(launch, engine: engine)
                let clock = clock
                perform {
                    $0.launchesArrived(CollectionOfOne(launched), now: { clock.now }, snapshot: ProcessSnapshot.current, into: &$1)
                }
                CaptureFilePool.shared.replenish()
            case .submit(let launch): launchThreads.submit(launch)
            case .withdraw(let tokens):
                let withdrawn = Set(launchThreads.withdraw(tokens).map { $0.request.token })
                perform { $0.launchesWithdrawn(withdrawn, of: tokens, into: &$1) }
            case .takeArrivals(let tokens):
                let arrived = engine.inbox.withLock { $0.takeLaunched(awaiting: tokens) }
                let clock = clock
                perform { $0.launchesArrived(arrived, now: { clock.now }, snapshot: ProcessSnapshot.current, into: &$1) }
            case .announceSpawn(let launch, let pid): launch.request.onSpawned?(pid)
            case .watchExit(let token, let pid):
                let engine = engine
                ExitWatcher.watchOnThread(pid) { error in engine.post { $0.exits.append((token, error)) } }
            case .dropPidfd(let pidfd):
                engine.waitSet.remove(pidfd: pidfd)
                _ = closeDescriptor(pidfd)
            case .tellStopWatchers(let watchers):
                let now = clock.now
                perform { $0.tellStopWatchers(watchers, now: now, into: &$1) }
            case .signalGroup(let target, let signal): _ = kill(target, signal)
            case .signalTree(let tree, let signal, let group): tree.signal(signal, outsideGroup: group)
            case .closeTree(let tree): tree.close()
            case .closeDescriptor(let descriptor): _ = closeDescriptor(descriptor)
            case .reap(let token, let pid):
                let endedByItself = machine.endedByItself(token)
                let status = Self.reapLeader(pid)
                if endedByItself, case .success = status { RunGuardian.commandEnded(token: token) }
                perform {
                    switch status {
                    case .success(let waitStatus): $0.leaderReaped(token, waitStatus: waitStatus, into: &$1)
                    case .failure(let failure): $0.leaderLost(token, errno: failure.code, into: &$1)
                    }
                }
            case .resume(let waiter, let exit): waiter.resume(returning: exit)
            case .tellRemaining(let watcher, let count, let longestGrace): watcher.onRemaining(count, longestGrace)
            case .release(let watcher): watcher.done.resume()
            }
        }
        actions.removeAll(keepingCapacity: true)
        spareActionBuffers.append(actions)
    }

    /// Reaps the exited leader `pid` of a child (a zombie, so this returns at once): its raw wait status, or the
    /// `errno` of the failed wait.
    private static func reapLeader(_ pid: pid_t) -> Result<Int32, ReapFailure> {
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, 0)
        } while result == -1 && errno == EINTR
        if result == -1 { return .failure(ReapFailure(code: errno)) }
        return .success(status)
    }

    /// Why a leader could not be reaped: the `errno` of `waitpid`.
    private struct ReapFailure: Error {
        let code: Int32
    }

    /// Runs the jobs of tasks that prefer the engine, in order.
    private func runJobs(_ jobs: [UnownedJob]) {
        guard !jobs.isEmpty else { return }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            let executor = engine.asUnownedTaskExecutor()
            for job in jobs { job.runSynchronously(on: executor) }
        }
    }

    /// Makes a requested spawn, or hands it to the launch threads (see
    /// ``EngineStateMachine/launchRequested(_:processors:into:)``).
    private mutating func start(_ request: SpawnRequest) {
        let marker = ProcessTree.marker(forSpawn: request.token, of: request.spec)
        let launch = LaunchThreads.Launch(request: request, marker: marker)
        let processors = ProcessorCount.online
        perform { $0.launchRequested(launch, processors: processors, into: &$1) }
    }

    /// Reaps exited children and resumes their tasks (see ``EngineStateMachine/childrenExited(_:now:snapshot:into:)``);
    /// the trees of stopped ones are found in `processes` if given, else in a snapshot taken for them. An exit seen
    /// before its launch arrived is reaped once it has.
    private mutating func reap(_ exits: [(token: UInt64, error: Int32)], processes given: ProcessSnapshot? = nil) {
        let clock = clock
        perform { $0.childrenExited(exits, now: { clock.now }, snapshot: { given ?? ProcessSnapshot.current() }, into: &$1) }
    }

    /// Reaps the exited children `waitid` shows, one at a time: the engine's own when the wait set reads SIGCHLD
    /// (otherwise it stops at one, whose pidfd or watcher reports it), and orphans adopted as the child subreaper.
    /// An exit that no child taken in explains may be a launch's that has not been taken in: it waits for those
    /// launches (see ``EngineStateMachine/unexplainedExit``).
    private mutating func sweep() {
        // One look at `/proc` for all the stopped children a sweep reaps (a stop of hundreds ends in one sweep).
        var processes: ProcessSnapshot? = nil
        while let pid = firstExitedChild() {
            perform { $0.exitedChildFound(pid, into: &$1) }
            if let token = machine.token(ofPid: pid) {
                // With SIGCHLD read (``ProcessEngine/ownEveryChild()``) every exit is found here; else by its pidfd.
                guard engine.waitSet.readsChildSignals else { return }
                if processes == nil, machine.phases[token]?.isStopping ?? false { processes = ProcessSnapshot.current() }
                reap([(token, 0)], processes: processes)
            } else if machine.isOrphan(pid) {
                var status: Int32 = 0
                _ = waitpid(pid, &status, WNOHANG)
            } else {
                return
            }
        }
        machine.sweepFinished()
    }

    /// The pid of an exited child not reaped yet, if there is one.
    private func firstExitedChild() -> pid_t? {
        var info = siginfo_t()
        guard waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return nil }
        let pid = info.childPid
        return pid > 0 ? pid : nil
    }

    /// Whether there is housekeeping to do: orphans to reap, or running children's output to trim, counting the
    /// launches not taken in yet (their arrival does not wake the loop; the next round takes them in).
    private var needsHousekeeping: Bool {
        reapsOrphans || machine.launchesPending || machine.capturesOutput
    }

    /// Reaps exited orphans and trims the capture files of running children to their tails, when due. Called every
    /// turn: between rounds it costs one clock reading.
    private mutating func keepHouse() {
        let now = clock.now
        guard now >= nextHousekeeping else { return }
        nextHousekeeping = now + Self.housekeepingInterval
        if reapsOrphans { sweep() }
        guard machine.capturesOutput else { return }
        for phase in machine.phases.values {
            if let descriptor = phase.runningChild?.captureDescriptor { CaptureFile.trimToTail(descriptor) }
        }
    }

    /// Milliseconds until the nearest deadline of the state machine or the next housekeeping (rounded up), or -1
    /// for neither.
    private func sleepLimit() -> Int32 {
        var nearest = machine.nextDeadline
        if needsHousekeeping { nearest = min(nearest ?? nextHousekeeping, nextHousekeeping) }
        guard let deadline = nearest else { return -1 }
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
