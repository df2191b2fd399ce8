import StartupKit
import StartupPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child the engine runs. Engine thread only.
struct RunningChild {
    /// The child's pid, also its process-group id unless it is a foreground child.
    let pid: pid_t
    /// Whether it shares `startup`'s process group (``ProcessSpec/foreground``): signals go to it, not a group.
    let isForeground: Bool
    /// Its pidfd in the wait set, or -1 when a watcher thread waits for it.
    let pidfd: Int32
    /// The task waiting for the exit.
    let waiter: CheckedContinuation<ChildExit, Never>
    /// The capture file its output goes to, trimmed to its tail while it runs.
    let captureDescriptor: Int32?
    /// SIGTERM to SIGKILL when it is stopped.
    let gracePeriod: Duration
    /// Whether a stop sends SIGTERM, or leaves it to its stop line (see ``SpawnRequest/signalsWhenStopped``).
    let signalsWhenStopped: Bool
    /// What goes with it beyond its group, found when it is stopped.
    var tree: ProcessTree
    /// The strongest signal sent because its task was cancelled.
    var signal: CancellationSignal? = nil
    /// When SIGTERM turns into SIGKILL (or, left to a stop line, into SIGTERM).
    var killDeadline: ContinuousClock.Instant? = nil
    /// How many of its processes got SIGKILL because the stop's grace period ended or a second interrupt came.
    var killedProcesses = 0

    /// Signals the child's process group, or only the child when it is a foreground one (its group is `startup`'s).
    func signalGroup(_ signal: Int32) {
        _ = kill(isForeground ? pid : -pid, signal)
    }

    /// Signals the child's process group and the members of its tree outside that group: each process once.
    func signalGroupAndTree(_ signal: Int32) {
        signalGroup(signal)
        tree.signal(signal, outsideGroup: isForeground ? nil : pid)
    }

    /// How many of its processes run in `processes` (a snapshot): the child itself (unreaped) and its tree's.
    func runningCount(in processes: [ProcessTree.Entry]) -> Int {
        let leader = processes.contains { $0.pid == pid && !$0.isZombie } ? 1 : 0
        return leader + tree.running(in: processes).count
    }
}

/// The engine's thread. Each turn takes what other threads posted (in one lock), takes in the children the launch
/// threads made, makes the requested spawns or hands them to the launch threads, stops the cancelled ones, runs the
/// queued jobs, then collects exits (sleeping in the wait set when nothing else was posted) and reaps them, resuming
/// their tasks.
///
/// Signalling and reaping happen only here, so a group is signalled only while its leader is unreaped (running
/// or a zombie), when its pid and process-group id cannot have been reused.
struct EngineLoop {
    let engine: ProcessEngine
    /// The threads that make the spawns when more children run than there are processors.
    private let launchThreads: LaunchThreads
    /// Spawns handed to the launch threads and not taken in yet, by token; `stopped` when a stop came meanwhile.
    private var launching: [UInt64: (request: SpawnRequest, marker: String?, stopped: Bool)] = [:]
    /// Launches whose exit the wait set reported before the launch itself arrived (a launch thread adds the pidfd,
    /// then hands the launch over): reaped as soon as it does.
    private var earlyExits: Set<UInt64> = []
    /// The children running, by token.
    private var children: [UInt64: RunningChild] = [:]
    /// Stopped children whose leader has exited while the rest of their tree still runs, by token.
    private var lingering: [UInt64: LingeringStop] = [:]
    /// When the lingering stops are next looked at: a look reads `/proc`.
    private var nextLingeringCheck = ContinuousClock.now
    /// How often a lingering stop looks for what is left of its tree (a look reads every process's `stat`).
    private static let lingeringInterval = Duration.milliseconds(25)
    /// The token of each running child, by pid (tells adopted orphans from our own children).
    private var tokensByPid: [pid_t: UInt64] = [:]
    /// A second interrupt came: stops are SIGKILL at once.
    private var killsAtOnce = false
    /// Tasks to resume once every child has been reaped (see ``ProcessEngine/stopEveryChild(onRemaining:)``).
    private var stopWatchers: [StopWatcher] = []
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
            if batch.killsAtOnce && !killsAtOnce {
                killsAtOnce = true
                killStoppingChildren()
                watchLingeringStops()
            }
            register(batch.launched)
            if unexplainedExit != nil { sweep() }  // the launch it waits for may be among those just taken in
            var exits: [(token: UInt64, error: Int32)]
            let wake: EngineWaitSet.Wake
            if batch.isEmpty {
                // Nothing runs: no launch thread may come to close the used capture files (`--keep-running`).
                if children.isEmpty && launching.isEmpty { CaptureFilePool.shared.closeRetired() }
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
            escalateOverdueStops()
            watchLingeringStops()
            if !batch.stopWatchers.isEmpty { stopEveryChild(for: batch.stopWatchers) }
            if !stopWatchers.isEmpty && children.isEmpty && launching.isEmpty && lingering.isEmpty {
                for watcher in stopWatchers { watcher.done.resume() }
                stopWatchers = []
            }
        }
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
        children.count + launching.count <= ProcessorCount.online
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
            children[request.token] = RunningChild(
                pid: pid, isForeground: request.spec.foreground, pidfd: launch.pidfd, waiter: request.waiter,
                captureDescriptor: request.spec.output == .capture ? request.captureDescriptor : nil, gracePeriod: request.gracePeriod,
                signalsWhenStopped: request.signalsWhenStopped, tree: ProcessTree(leader: pid, marker: marker))
            tokensByPid[pid] = request.token
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

    /// Stops the children of cancelled tasks: SIGTERM to each group and tree (SIGKILL with no grace period or
    /// after a second interrupt; nothing for a child left to its stop line), SIGKILL when the grace period ends.
    /// Tokens of finished children are ignored.
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
        guard tokens.contains(where: { children[$0].map { $0.signal == nil } ?? false }) else { return }
        let processes = ProcessTree.snapshot()
        for token in tokens {
            guard var child = children[token], child.signal == nil else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            let atOnce = killsAtOnce || child.gracePeriod <= .zero
            if atOnce || child.signalsWhenStopped {
                if atOnce { child.killedProcesses = child.runningCount(in: processes) }
                child.signalGroupAndTree(atOnce ? SIGKILL : SIGTERM)
                child.signal = atOnce ? .kill : .terminate
            } else {
                child.signal = .leftToStopLine
            }
            child.killDeadline = atOnce ? nil : clock.now + child.gracePeriod
            children[token] = child
        }
    }

    /// Stops every child and launch, and tells `watchers` what is left, if anything; they are resumed once
    /// nothing is.
    private mutating func stopEveryChild(for watchers: [StopWatcher]) {
        stopWatchers += watchers
        stop(Array(children.keys) + Array(launching.keys))
        let remaining = children.count + launching.count + lingering.count
        guard remaining > 0 else { return }
        // A launch still underway is stopped when it arrives: its grace period does not count in the longest here.
        let now = clock.now
        let deadlines = children.values.compactMap(\.killDeadline) + lingering.values.map(\.deadline)
        let longestGrace = deadlines.map { now.duration(to: $0) }.max() ?? .zero
        for watcher in watchers { watcher.onRemaining(remaining, max(.zero, longestGrace)) }
    }

    /// For the children whose grace period is over: SIGKILL after a SIGTERM; SIGTERM, and a further grace period,
    /// for one left to its stop line (half the period it was given, which counts the stop line's own).
    private mutating func escalateOverdueStops() {
        guard children.values.contains(where: { $0.killDeadline != nil }) else { return }
        let now = clock.now
        let overdue = children.filter { $0.value.killDeadline.map { $0 <= now } ?? false }.map(\.key)
        guard !overdue.isEmpty else { return }
        let afterStopLine = overdue.filter { children[$0]?.signal == .leftToStopLine }
        if !afterStopLine.isEmpty {
            let processes = ProcessTree.snapshot()
            for token in afterStopLine {
                guard var child = children[token] else { continue }
                child.tree.extend(from: processes, excluding: tokensByPid.keys)
                child.signalGroupAndTree(SIGTERM)
                child.signal = .terminate
                child.killDeadline = now + child.gracePeriod / 2
                children[token] = child
            }
        }
        let toKill = overdue.filter { !afterStopLine.contains($0) }
        if !toKill.isEmpty { killNow(toKill) }
    }

    /// Looks at the lingering stops when due (or at once after a second interrupt): resumes those whose tree is
    /// gone, signals those whose deadline has come.
    private mutating func watchLingeringStops() {
        guard !lingering.isEmpty else { return }
        let now = clock.now
        guard killsAtOnce || now >= nextLingeringCheck || lingering.values.contains(where: { $0.deadline <= now }) else { return }
        nextLingeringCheck = now + Self.lingeringInterval
        let processes = ProcessTree.snapshot()
        for token in Array(lingering.keys) {
            guard var stop = lingering[token] else { continue }
            stop.tree.extend(from: processes, excluding: tokensByPid.keys)
            if stop.step(processes: processes, now: now, killAtOnce: killsAtOnce) {
                lingering[token] = nil
            } else {
                lingering[token] = stop
            }
        }
    }

    /// SIGKILL for every child in its grace period.
    private mutating func killStoppingChildren() {
        let stopping = children.filter { $0.value.signal == .terminate || $0.value.signal == .leftToStopLine }.map(\.key)
        if !stopping.isEmpty { killNow(stopping) }
    }

    /// Sends SIGKILL to the groups and trees of `tokens`, found again (what was started since the stop began).
    private mutating func killNow(_ tokens: [UInt64]) {
        let processes = ProcessTree.snapshot()
        for token in tokens {
            guard var child = children[token] else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            if child.signal != .kill { child.killedProcesses += child.runningCount(in: processes) }
            child.signalGroupAndTree(SIGKILL)
            child.signal = .kill
            child.killDeadline = nil
            children[token] = child
        }
    }

    /// Reaps exited children and resumes their tasks. A stopped child's group and tree get SIGKILL first, so
    /// nothing it started outlives it (members that ignored SIGTERM, or were started during the grace period),
    /// found in `processes` if given, else in a snapshot taken for them.
    private mutating func reap(_ exits: [(token: UInt64, error: Int32)], processes given: [ProcessTree.Entry]? = nil) {
        let early = exits.map(\.token).filter { launching[$0] != nil }
        if !early.isEmpty {
            earlyExits.formUnion(early)
            registerArrivals(awaiting: early)  // Reaps those that have arrived; the others wake the loop when they do.
        }
        let stopped = exits.contains { children[$0.token]?.signal != nil }
        let processes = given ?? (stopped ? ProcessTree.snapshot() : [])
        for (token, error) in exits {
            guard var child = children.removeValue(forKey: token) else { continue }
            tokensByPid[child.pid] = nil
            // Closing the pidfd takes it out of the wait set (a spawn's child may hold a copy until it execs; the
            // exit was reported already, and an unknown token is ignored).
            if child.pidfd >= 0 { _ = closeDescriptor(child.pidfd) }
            if child.signal != nil {
                child.tree.extend(from: processes, excluding: tokensByPid.keys)
                // The grace period is for the whole tree: what is left of it may still be shutting down.
                if error == 0, !killsAtOnce, child.signal != .kill, let deadline = child.killDeadline,
                    !child.tree.running(in: processes).isEmpty
                {
                    let exit = waitForStatus(of: child)
                    child.tree.leaderReaped = true
                    lingering[token] = LingeringStop(
                        tree: child.tree, waiter: child.waiter, exit: exit, deadline: deadline, furtherGrace: child.gracePeriod / 2)
                    if unexplainedExit?.pid == child.pid { unexplainedExit = nil }
                    continue
                }
                // The group is ours to signal only while its leader is our unreaped zombie: after
                // a failed wait (the leader was reaped elsewhere) its id may belong to another group.
                if error == 0 { child.signalGroup(SIGKILL) }
                child.tree.signal(SIGKILL)
            }
            child.tree.close()
            if unexplainedExit?.pid == child.pid { unexplainedExit = nil }  // its pid may be reused once reaped
            child.waiter.resume(returning: error == 0 ? waitForStatus(of: child) : lost(child, error))
        }
    }

    /// Reaps the exited child (a zombie, so this returns at once).
    private func waitForStatus(of child: RunningChild) -> ChildExit {
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(child.pid, &status, 0)
        } while result == -1 && errno == EINTR
        if result == -1 { return lost(child, errno) }
        return ChildExit(termination: Termination(waitStatus: status), cancellation: child.signal, killedProcesses: child.killedProcesses)
    }

    /// The outcome when the child could not be waited for (e.g. someone else reaped it, or SIGCHLD is ignored).
    private func lost(_ child: RunningChild, _ code: Int32) -> ChildExit {
        ChildExit(
            termination: .failedToStart(errno: code, message: "lost track of process \(child.pid): \(errnoDescription(code))"),
            cancellation: child.signal)
    }

    /// Reaps the exited children `waitid` shows, one at a time: the engine's own when the wait set reads SIGCHLD
    /// (otherwise it stops at one, whose pidfd or watcher reports it), and orphans adopted as the child subreaper.
    /// An exit that no child taken in explains may be a launch's that has not been taken in: it waits for those
    /// launches (see `unexplainedExit`).
    private mutating func sweep() {
        // One look at `/proc` for all the stopped children a sweep reaps (a stop of hundreds ends in one sweep).
        var processes: [ProcessTree.Entry]? = nil
        while let pid = firstExitedChild() {
            if tokensByPid[pid] == nil, !launching.isEmpty {
                // Take in the launches that have arrived; the others wake the loop when they do.
                register(engine.inbox.withLock { $0.takeLaunched(awaiting: launching.keys) })
            }
            if let token = tokensByPid[pid] {
                // With SIGCHLD read (``ProcessEngine/ownEveryChild()``) every exit is found here; else by its pidfd.
                guard engine.waitSet.readsChildSignals else { return }
                if processes == nil, children[token]?.signal != nil { processes = ProcessTree.snapshot() }
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
        reapsOrphans || !launching.isEmpty || children.values.contains { $0.captureDescriptor != nil }
    }

    /// Reaps exited orphans and trims the capture files of running children to their tails, when due. Called every
    /// turn: between rounds it costs one clock reading.
    private mutating func keepHouse() {
        let now = clock.now
        guard now >= nextHousekeeping else { return }
        nextHousekeeping = now + Self.housekeepingInterval
        if reapsOrphans { sweep() }
        for child in children.values {
            if let descriptor = child.captureDescriptor { CaptureFile.trimToTail(descriptor) }
        }
    }

    /// Milliseconds until the nearest end of a grace period or the next housekeeping (rounded up), or -1 for
    /// neither.
    private func sleepLimit() -> Int32 {
        let deadlines =
            children.values.compactMap(\.killDeadline) + (needsHousekeeping ? [nextHousekeeping] : [])
            + (lingering.isEmpty ? [] : [nextLingeringCheck])
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
