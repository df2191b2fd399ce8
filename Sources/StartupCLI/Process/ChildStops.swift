#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The decisions of the engine's loop about its running children and their stops: which processes get SIGTERM or
/// SIGKILL and when, when a grace period is over, what a child's task is told when it exits, and when the tasks
/// waiting for every child to be stopped are done.
///
/// Each input is a `mutating` method that takes the time and, through `snapshot`, the processes running (called at
/// most once or twice per input, and only when a decision needs it, as reading `/proc` costs a read of every
/// process's `stat`), and returns the ``Action``s to perform, in order. It never reads a clock or `/proc`, never
/// signals, reaps or resumes anything itself: `EngineLoop` does, so every decision here can be tested with made-up
/// pids, times and processes. `Waiter` is what a child's task waits on, `Watcher` a task waiting for every child to
/// be stopped.
struct ChildStops<Tree: StoppableTree, Waiter, Watcher, Instant: InstantProtocol<Duration>> {
    /// The children running, by token.
    private(set) var children: [UInt64: Child] = [:]
    /// The token of each running child, by pid (tells adopted orphans from our own children).
    private var tokensByPid: [pid_t: UInt64] = [:]
    /// Children whose exit was seen and whose leader the loop is reaping (see ``Action/reap(_:pid:)``), with the
    /// deadline of their lingering stop if what is left of their tree still runs.
    private var reaping: [UInt64: (child: Child, lingersUntil: Instant?)] = [:]
    /// Stopped children whose leader has exited while the rest of their tree still runs, by token.
    private var lingering: [UInt64: LingeringStop] = [:]
    /// When the lingering stops are next looked at: a look takes a snapshot.
    private var nextLingeringCheck: Instant
    /// A second interrupt came: stops are SIGKILL at once.
    private(set) var killsAtOnce = false
    /// Tasks to tell once every child has been reaped and every lingering stop is over.
    private var stopWatchers: [Watcher] = []

    /// How often a lingering stop looks for what is left of its tree.
    static var lingeringInterval: Duration { .milliseconds(25) }

    /// No children yet; the first lingering stop is looked at as soon as there is one (`start` is the time now).
    init(start: Instant) {
        nextLingeringCheck = start
    }

    /// The token of the running child `pid`, if it is one.
    func token(ofPid pid: pid_t) -> UInt64? {
        tokensByPid[pid]
    }

    /// The nearest time a decision is due (the end of a grace period, the next look at lingering stops), if any.
    var nextDeadline: Instant? {
        let kills = children.values.lazy.compactMap(\.killDeadline).min()
        guard !lingering.isEmpty else { return kills }
        return kills.map { min($0, nextLingeringCheck) } ?? nextLingeringCheck
    }

    /// Takes in a child just spawned under `token`.
    mutating func childStarted(_ child: Child, token: UInt64) {
        children[token] = child
        tokensByPid[child.pid] = token
    }

    /// Stops the children of `tokens` not stopped yet: SIGTERM to each group and tree and SIGKILL once the grace
    /// period is over; SIGKILL at once with no grace period or after a second interrupt; nothing yet for a child
    /// left to its stop line. Tokens of children not running are ignored.
    mutating func stop(_ tokens: [UInt64], now: Instant, snapshot: () -> [ProcessTree.Entry]) -> [Action] {
        guard tokens.contains(where: { children[$0].map { $0.signal == nil } ?? false }) else { return [] }
        let processes = snapshot()
        var actions: [Action] = []
        for token in tokens {
            guard var child = children[token], child.signal == nil else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            let atOnce = killsAtOnce || child.gracePeriod <= .zero
            if atOnce || child.signalsWhenStopped {
                if atOnce { child.killedProcesses = child.runningCount(in: processes) }
                actions += child.signalGroupAndTree(atOnce ? SIGKILL : SIGTERM)
                child.signal = atOnce ? .kill : .terminate
            } else {
                child.signal = .leftToStopLine
            }
            child.killDeadline = atOnce ? nil : now.advanced(by: child.gracePeriod)
            children[token] = child
        }
        return actions
    }

    /// A second interrupt came: every child in its grace period gets SIGKILL, every lingering stop is looked at and
    /// killed, and every later stop is SIGKILL at once.
    mutating func killAtOnce(now: Instant, snapshot: () -> [ProcessTree.Entry]) -> [Action] {
        guard !killsAtOnce else { return [] }
        killsAtOnce = true
        let stopping = children.filter { $0.value.signal == .terminate || $0.value.signal == .leftToStopLine }.keys
        var actions = stopping.isEmpty ? [] : killNow(stopping.sorted(), processes: snapshot())
        actions += watchLingeringStops(now: now, snapshot: snapshot)
        return actions
    }

    /// The clock reached `now`: SIGKILL for the children whose grace period is over after a SIGTERM; SIGTERM, and a
    /// further grace period of half the one given (which counts the stop line's own), for one left to its stop line.
    mutating func escalateOverdueStops(now: Instant, snapshot: () -> [ProcessTree.Entry]) -> [Action] {
        let overdue = children.filter { $0.value.killDeadline.map { $0 <= now } ?? false }.keys.sorted()
        guard !overdue.isEmpty else { return [] }
        let afterStopLine = overdue.filter { children[$0]?.signal == .leftToStopLine }
        var actions: [Action] = []
        if !afterStopLine.isEmpty {
            let processes = snapshot()
            for token in afterStopLine {
                guard var child = children[token] else { continue }
                child.tree.extend(from: processes, excluding: tokensByPid.keys)
                actions += child.signalGroupAndTree(SIGTERM)
                child.signal = .terminate
                child.killDeadline = now.advanced(by: child.gracePeriod / 2)
                children[token] = child
            }
        }
        let toKill = overdue.filter { !afterStopLine.contains($0) }
        if !toKill.isEmpty { actions += killNow(toKill, processes: snapshot()) }
        return actions
    }

    /// SIGKILL to the groups and trees of `tokens`, found again in `processes` (what was started since the stop
    /// began), counting the processes killed.
    private mutating func killNow(_ tokens: [UInt64], processes: [ProcessTree.Entry]) -> [Action] {
        var actions: [Action] = []
        for token in tokens {
            guard var child = children[token] else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            if child.signal != .kill { child.killedProcesses += child.runningCount(in: processes) }
            actions += child.signalGroupAndTree(SIGKILL)
            child.signal = .kill
            child.killDeadline = nil
            children[token] = child
        }
        return actions
    }

    /// Children exited (`error` 0), or their wait failed (`errno`). A stopped child's group and tree get SIGKILL
    /// before its leader is reaped, so nothing it started outlives it (members that ignored SIGTERM, or were started
    /// during the grace period); one whose tree still runs within its grace period becomes a lingering stop instead.
    /// A leader to reap is left to the loop (``Action/reap(_:pid:)``); tokens of children not running are ignored.
    mutating func childrenExited(
        _ exits: [(token: UInt64, error: Int32)], snapshot: () -> [ProcessTree.Entry]
    ) -> [Action] {
        let stopped = exits.contains { children[$0.token]?.signal != nil }
        let processes = stopped ? snapshot() : []
        var actions: [Action] = []
        for (token, error) in exits {
            guard var child = children.removeValue(forKey: token) else { continue }
            tokensByPid[child.pid] = nil
            // Closing the pidfd takes it out of the wait set (a spawn's child may hold a copy until it execs; the
            // exit was reported already, and an unknown token is ignored).
            if child.pidfd >= 0 { actions.append(.closeDescriptor(child.pidfd)) }
            if child.signal != nil {
                child.tree.extend(from: processes, excluding: tokensByPid.keys)
                // The grace period is for the whole tree: what is left of it may still be shutting down.
                if error == 0, !killsAtOnce, child.signal != .kill, let deadline = child.killDeadline,
                    !child.tree.running(in: processes).isEmpty
                {
                    child.tree.leaderReaped = true
                    reaping[token] = (child, deadline)
                    actions.append(.reap(token, pid: child.pid))
                    continue
                }
                // The group is ours to signal only while its leader is our unreaped zombie: after
                // a failed wait (the leader was reaped elsewhere) its id may belong to another group.
                if error == 0 { actions.append(.signalGroup(child.groupTarget, SIGKILL)) }
                actions.append(.signalTree(child.tree, SIGKILL, outsideGroup: nil))
            }
            actions.append(.closeTree(child.tree))
            if error == 0 {
                reaping[token] = (child, nil)
                actions.append(.reap(token, pid: child.pid))
            } else {
                actions.append(.resume(child.waiter, child.lostExit(error)))
            }
        }
        return actions
    }

    /// The loop reaped the leader of `token` (see ``Action/reap(_:pid:)``), which ended with the raw `waitStatus`:
    /// its task is resumed, or, if its tree lingers, its lingering stop begins.
    mutating func leaderReaped(_ token: UInt64, waitStatus: Int32) -> [Action] {
        guard let (child, _) = reaping[token] else { return [] }
        let exit = ChildExit(
            termination: Termination(waitStatus: waitStatus), cancellation: child.signal,
            killedProcesses: child.killedProcesses)
        return finishReaping(token, exit: exit)
    }

    /// The loop could not reap the leader of `token` (see ``Action/reap(_:pid:)``): `errno` tells why (e.g.
    /// someone else reaped it).
    mutating func leaderLost(_ token: UInt64, errno code: Int32) -> [Action] {
        guard let (child, _) = reaping[token] else { return [] }
        return finishReaping(token, exit: child.lostExit(code))
    }

    /// Resumes the task of the reaped child `token` with `exit`, or begins its lingering stop.
    private mutating func finishReaping(_ token: UInt64, exit: ChildExit) -> [Action] {
        guard let (child, lingersUntil) = reaping.removeValue(forKey: token) else { return [] }
        guard let deadline = lingersUntil else { return [.resume(child.waiter, exit)] }
        lingering[token] = LingeringStop(
            tree: child.tree, waiter: child.waiter, exit: exit, deadline: deadline, furtherGrace: child.gracePeriod / 2)
        return []
    }

    /// Looks at the lingering stops when due at `now` (or at once after a second interrupt): resumes the tasks of
    /// those whose tree is gone, signals those whose deadline has come.
    mutating func watchLingeringStops(now: Instant, snapshot: () -> [ProcessTree.Entry]) -> [Action] {
        guard !lingering.isEmpty else { return [] }
        guard killsAtOnce || now >= nextLingeringCheck || lingering.values.contains(where: { $0.deadline <= now }) else {
            return []
        }
        nextLingeringCheck = now.advanced(by: Self.lingeringInterval)
        let processes = snapshot()
        var actions: [Action] = []
        for token in lingering.keys.sorted() {
            guard var stop = lingering[token] else { continue }
            stop.tree.extend(from: processes, excluding: tokensByPid.keys)
            let step = stop.step(processes: processes, now: now, killAtOnce: killsAtOnce)
            actions += step.actions
            lingering[token] = step.isOver ? nil : stop
        }
        return actions
    }

    /// Adds `watchers`, waiting for every child to be stopped, and tells them how many children are left (with the
    /// `launches` not taken in yet) and the longest grace period one of them has left at `now`, if any is left.
    mutating func addStopWatchers(_ watchers: [Watcher], launches: Int, now: Instant) -> [Action] {
        stopWatchers += watchers
        let remaining = children.count + launches + lingering.count
        guard remaining > 0 else { return [] }
        // A launch still underway is stopped when it arrives: its grace period does not count in the longest here.
        let deadlines = children.values.compactMap(\.killDeadline) + lingering.values.map(\.deadline)
        let longestGrace = max(.zero, deadlines.map { now.duration(to: $0) }.max() ?? .zero)
        return watchers.map { .tellRemaining($0, count: remaining, longestGrace: longestGrace) }
    }

    /// Releases the stop watchers once no child, lingering stop or (`launchesPending`) launch is left.
    mutating func releaseStopWatchers(launchesPending: Bool) -> [Action] {
        guard !stopWatchers.isEmpty, !launchesPending, children.isEmpty, reaping.isEmpty, lingering.isEmpty else {
            return []
        }
        defer { stopWatchers = [] }
        return stopWatchers.map { .release($0) }
    }
}
