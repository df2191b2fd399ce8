#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EngineStateMachine {
    /// A spawn requested and not taken in yet, and what came for it meanwhile.
    struct Launching {
        /// The spawn.
        let launch: Launch
        /// A stop came: the child is stopped as soon as it is taken in.
        var stopped = false
        /// Its exit was seen (a launch thread adds the pidfd, then hands the launch over): it is reaped as soon as
        /// it is taken in.
        var exitedEarly = false
    }

    /// Whether spawns are requested that have not been taken in yet.
    var launchesPending: Bool { !index.launching.isEmpty }

    /// The tokens of the spawns requested and not taken in yet.
    var launchingTokens: Set<UInt64> { index.launching }

    /// Whether `token` is a spawn not taken in yet.
    private func isLaunching(_ token: UInt64) -> Bool {
        index.launching.contains(token)
    }

    /// Applies `change` to the spawn of `token` if it has not been taken in yet.
    private mutating func updateLaunch(_ token: UInt64, _ change: (inout Launching) -> Void) {
        guard case .launching(var record) = phases[token] else { return }
        change(&record)
        setPhase(.launching(record), of: token)
    }

    /// A spawn is requested: the loop makes it itself (``Action/spawn(_:)``) while the children running or being
    /// launched, this one included, are no more than `processors`, as with `-j 2` on two. Then the loop has few exits
    /// to reap during a spawn, and handing the spawn to a launch thread would cost two thread wake-ups on the path
    /// from one command's exit to the next command's start. With more children than processors it goes to the launch
    /// threads (``Action/submit(_:)``), which let the loop reap while children exec side by side.
    mutating func launchRequested(_ launch: Launch, processors: Int, into actions: inout [Action]) {
        setPhase(.launching(Launching(launch: launch)), of: launch.token)
        actions.append(index.running + index.launching.count <= processors ? .spawn(launch) : .submit(launch))
    }

    /// Spawns have been made (`launches`, from ``Action/spawn(_:)`` or the launch threads): a failed one resumes its
    /// task; a child made is taken in, then stopped at once if a stop came while it was launched, and reaped if its
    /// exit was seen first. A launch not pending (none is: each arrives once) has its pidfd taken out of the wait set.
    /// `now` is read only for such a stop: a spawn's common path reads no clock.
    mutating func launchesArrived(
        _ launches: some Sequence<LaunchedChild>, now: () -> Instant, snapshot: () -> ProcessSnapshot,
        into actions: inout [Action]
    ) {
        var stopped: [UInt64] = []
        var exited: [(token: UInt64, error: Int32)] = []
        for arrival in launches {
            guard case .launching(let record) = phases[arrival.token] else {
                if arrival.pidfd >= 0 { actions.append(.dropPidfd(arrival.pidfd)) }
                continue
            }
            let launch = record.launch
            let pid: pid_t
            switch arrival.result {
            case .failure(let failure):
                setPhase(nil, of: arrival.token)
                actions.append(.resume(launch.waiter, ChildExit(termination: failure.termination, cancellation: nil)))
                continue
            case .success(let spawned):
                pid = spawned
            }
            actions.append(.announceSpawn(launch, pid: pid))
            if !arrival.exitWakesLoop { actions.append(.watchExit(launch.token, pid: pid)) }
            let child = Child(
                pid: pid, isForeground: launch.isForeground, pidfd: arrival.pidfd, waiter: launch.waiter,
                captureDescriptor: launch.captureDescriptor, gracePeriod: launch.gracePeriod,
                signalsWhenStopped: launch.signalsWhenStopped, tree: launch.tree(leader: pid), stopsTreeOnExit: launch.stopsTreeOnExit)
            childStarted(child, token: launch.token)
            if record.stopped { stopped.append(launch.token) }
            if record.exitedEarly { exited.append((launch.token, 0)) }
        }
        if !stopped.isEmpty { stop(stopped, now: now(), snapshot: snapshot, into: &actions) }
        if !exited.isEmpty { childrenExited(exited, now: now, snapshot: snapshot, into: &actions) }
    }

    /// The launch threads gave back the spawns `withdrawn` of those `asked` for (``Action/withdraw(_:)``): their
    /// tasks are resumed, cancelled before the start. The others of `asked` are underway: they are taken in as soon
    /// as they arrive (``Action/takeArrivals(awaiting:)``), and stopped then.
    mutating func launchesWithdrawn(_ withdrawn: Set<UInt64>, of asked: Set<UInt64>, into actions: inout [Action]) {
        for token in withdrawn.sorted() {
            guard case .launching(let record) = phases[token] else { continue }
            setPhase(nil, of: token)
            actions.append(.resume(record.launch.waiter, record.launch.exitIfWithdrawn))
        }
        let underway = asked.filter { isLaunching($0) }
        if !underway.isEmpty { actions.append(.takeArrivals(awaiting: underway)) }
    }

    /// Marks the spawns of `tokens` not taken in yet as stopped, and asks the launch threads to give back those
    /// they have not made (``Action/withdraw(_:)``); none if no token is a launch's. The first step of
    /// ``stop(_:now:snapshot:into:)``.
    mutating func stopLaunches(_ tokens: [UInt64], into actions: inout [Action]) {
        guard tokens.contains(where: { isLaunching($0) }) else { return }
        let inLaunch = Set(tokens.filter { isLaunching($0) })
        for token in inLaunch { updateLaunch(token) { $0.stopped = true } }
        actions.append(.withdraw(inLaunch))
    }

    /// Of `exits`, marks those of spawns not taken in yet to be reaped once they are, and takes in those that have
    /// arrived (``Action/takeArrivals(awaiting:)``); none if no exit is a launch's. The first step of
    /// ``childrenExited(_:now:snapshot:into:)``.
    mutating func launchesExited(_ exits: [(token: UInt64, error: Int32)], into actions: inout [Action]) {
        guard launchesPending, exits.contains(where: { isLaunching($0.token) }) else { return }
        let early = Set(exits.map { $0.token }.filter { isLaunching($0) })
        for token in early { updateLaunch(token) { $0.exitedEarly = true } }
        actions.append(.takeArrivals(awaiting: early))
    }

    /// A sweep found the exited child `pid`: when no child taken in explains it and spawns are pending, the launches
    /// that have arrived are taken in first (it may be one of theirs); the others wake the loop when they arrive.
    func exitedChildFound(_ pid: pid_t, into actions: inout [Action]) {
        guard token(ofPid: pid) == nil, launchesPending else { return }
        actions.append(.takeArrivals(awaiting: launchingTokens))
    }

    /// Whether the exited child `pid`, which no child taken in explains, is an orphan of `startup` as the child
    /// subreaper: once every launch that was pending when it was first seen has been taken in (a child started later
    /// cannot be it). Until then it may be a launch's not taken in yet, and is remembered (not reaped, so its pid is
    /// not reused).
    mutating func isOrphan(_ pid: pid_t) -> Bool {
        var launches = launchingTokens
        if let seen = unexplainedExit, seen.pid == pid { launches.formIntersection(seen.launches) }
        unexplainedExit = launches.isEmpty ? nil : (pid, launches)
        return launches.isEmpty
    }

    /// A sweep found no exited child left: no exit waits for an explanation.
    mutating func sweepFinished() {
        unexplainedExit = nil
    }
}
