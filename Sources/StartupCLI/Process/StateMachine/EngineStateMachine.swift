#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The decisions of the engine's loop about its children, from the spawn to the reap: who makes a spawn, what
/// becomes of a launch that arrives, is stopped or exits before it is taken in, which processes get SIGTERM or
/// SIGKILL and when, when a grace period is over, what a child's task is told when it exits, whether an exited child
/// is an orphan, and when the tasks waiting for every child to be stopped are done.
///
/// Each input is a method that takes what its decision needs: the time, and, through `snapshot`, the processes
/// running (called at most once or twice per input, and only when a decision needs it, as reading `/proc` costs a
/// read of every process's `stat`). Most append the ``Action``s to perform, in order, to `actions` (a buffer the
/// loop reuses, so the common path allocates no array of actions). It never reads a clock or `/proc`, never
/// signals, reaps or resumes anything itself: `EngineLoop` does, and the tree (``StoppableTree``) opens the pidfds
/// of the members it finds, so every decision here can be tested with made-up pids, times, processes and trees.
/// It keeps one ``ChildPhase`` per child, under the child's token, from the request for its spawn to the resumption
/// of its task. `Launch` is a spawn (with the task waiting for it), `Watcher` a task waiting for every child to be
/// stopped.
/// Where a decision needs another thread in the middle (to withdraw a launch, to take in launches that arrived, to
/// reap), it is an action the loop reports the outcome of with a further input.
///
/// No key paths here (`\.stopDeadline`): in generic code, even specialised, a key path is built from its mangled
/// name at run time on every use, which would cost each turn of the loop more than the rest of its decisions.
struct EngineStateMachine<Launch: ChildLaunch, Watcher, Instant: InstantProtocol<Duration>> {
    /// What goes with a child beyond its process group.
    typealias Tree = Launch.Tree
    /// What a child's task waits on.
    typealias Waiter = Launch.Waiter

    /// Every child's phase, by token, from the request for its spawn to the resumption of its task. Changed only by
    /// ``setPhase(_:of:)``, which keeps `index`.
    private(set) var phases: [UInt64: ChildPhase] = [:]
    /// The launching and lingering children and how many run, so that the questions of every turn scan nothing.
    private(set) var index = PhaseIndex()
    /// The token of each running child (`running` or `stopping`), by pid: tells adopted orphans from our own
    /// children, and keeps them out of the trees of stopped ones.
    private var tokensByPid: [pid_t: UInt64] = [:]
    /// When the lingering stops are next looked at: a look takes a snapshot.
    private var nextLingeringCheck: Instant
    /// A second interrupt came: stops are SIGKILL at once.
    private(set) var killsAtOnce = false
    /// Tasks to tell once every child has been reaped and every lingering stop is over.
    private var stopWatchers: [Watcher] = []
    /// An exited child that no child taken in explains, with the launches pending when it was first seen: it is one
    /// of theirs, or an orphan once they have all been taken in (see ``isOrphan(_:)``, which updates it).
    var unexplainedExit: (pid: pid_t, launches: Set<UInt64>)? = nil

    /// How often a lingering stop looks for what is left of its tree.
    static var lingeringInterval: Duration { .milliseconds(25) }

    /// No children yet; the first lingering stop is looked at as soon as there is one (`start` is the time now).
    init(start: Instant) {
        nextLingeringCheck = start
    }

    /// Whether the child `token`, which the loop is reaping (``Action/reap(_:pid:)``), ended by itself: it was not
    /// stopped, so what it left running stays, as with make.
    func endedByItself(_ token: UInt64) -> Bool {
        if case .reaping(_, nil, _) = phases[token] { true } else { false }
    }

    /// The token of the running child `pid`, if it is one.
    func token(ofPid pid: pid_t) -> UInt64? {
        tokensByPid[pid]
    }

    /// Puts the child of `token` in `phase`, or takes it out of the table (`nil`), and indexes it.
    mutating func setPhase(_ phase: ChildPhase?, of token: UInt64) {
        let old = if let phase { phases.updateValue(phase, forKey: token) } else { phases.removeValue(forKey: token) }
        index.move(token, from: old, to: phase)
    }

    /// Whether a child has been taken in and has not exited yet.
    var hasRunningChildren: Bool { index.running > 0 }

    /// The nearest time a decision is due (the end of a grace period, the next look at lingering stops), if any.
    var nextDeadline: Instant? {
        let kills = hasKillDeadlines ? phases.values.lazy.compactMap { $0.stopDeadline }.min() : nil
        guard hasLingeringStops else { return kills }
        return kills.map { min($0, nextLingeringCheck) } ?? nextLingeringCheck
    }

    /// Whether a running child has a grace period going (``escalateOverdueStops(now:snapshot:into:)`` has something to
    /// look at), which the loop asks on every turn.
    var hasKillDeadlines: Bool { index.withStopDeadline > 0 }

    /// Whether a running child's output goes to a capture file, which the loop trims to its tail now and then.
    var capturesOutput: Bool { index.capturing > 0 }

    /// Whether there are lingering stops to look at (``watchLingeringStops(now:snapshot:into:)``).
    var hasLingeringStops: Bool { !index.lingering.isEmpty }

    /// Whether ``releaseStopWatchers(into:)`` has watchers to release.
    var hasStopWatchers: Bool { !stopWatchers.isEmpty }

    /// Takes in a child just spawned under `token`.
    mutating func childStarted(_ child: Child, token: UInt64) {
        setPhase(.running(child), of: token)
        tokensByPid[child.pid] = token
    }

    /// Stops the children of `tokens` not stopped yet: SIGTERM to each group and tree and SIGKILL once the grace
    /// period is over; SIGKILL at once with no grace period or after a second interrupt; nothing yet for a child
    /// left to its stop line, whose grace period begins when the line has ended (``stopLinesEnded(_:now:)``). A spawn
    /// not taken in yet is withdrawn first (see ``launchesWithdrawn(_:of:into:)``), or stopped once it arrives. Tokens
    /// of children not running are ignored.
    mutating func stop(
        _ tokens: [UInt64], now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]
    ) {
        stopLaunches(tokens, into: &actions)
        guard tokens.contains(where: { isRunningUnstopped($0) }) else { return }
        let processes = snapshot()
        for token in tokens {
            guard case .running(var child) = phases[token] else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            let stop: Stop
            if killsAtOnce || child.gracePeriod <= .zero {
                stop = .killed(
                    ProcessKill(
                        processes: child.runningCount(in: processes), cause: killsAtOnce ? .secondInterrupt : .noGracePeriod))
                child.signalGroupAndTree(SIGKILL, into: &actions)
            } else if child.signalsWhenStopped {
                stop = .terminated(killAt: now.advanced(by: child.gracePeriod))
                child.signalGroupAndTree(SIGTERM, into: &actions)
            } else {
                stop = .leftToStopLine(graceEnds: nil)
            }
            setPhase(.stopping(child, stop), of: token)
        }
    }

    /// Whether `token` is a child that runs and has not been stopped.
    private func isRunningUnstopped(_ token: UInt64) -> Bool {
        if case .running = phases[token] { true } else { false }
    }

    /// The stop lines that the children of `tokens` were left to have ended at `now`: each child's grace period
    /// begins, to end by itself (or what is left of its tree, if its leader has exited), after which it gets SIGTERM
    /// and SIGKILL after a further grace period. Tokens of children not left to a running stop line are ignored.
    mutating func stopLinesEnded(_ tokens: [UInt64], now: Instant) {
        for token in tokens {
            switch phases[token] {
            case .stopping(let child, .leftToStopLine(graceEnds: nil)):
                setPhase(.stopping(child, .leftToStopLine(graceEnds: now.advanced(by: child.gracePeriod))), of: token)
            case .reaping(let child, .leftToStopLine(graceEnds: nil), lingers: true):
                setPhase(.reaping(child, .leftToStopLine(graceEnds: now.advanced(by: child.gracePeriod)), lingers: true), of: token)
            case .lingering(var stop) where stop.deadline == nil:
                stop.deadline = now.advanced(by: stop.furtherGrace)
                setPhase(.lingering(stop), of: token)
            default:
                continue
            }
        }
    }

    /// A second interrupt came: every child in its grace period gets SIGKILL, every lingering stop is looked at and
    /// killed, and every later stop is SIGKILL at once.
    mutating func killAtOnce(now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]) {
        guard !killsAtOnce else { return }
        killsAtOnce = true
        let stopping = phases.filter { entry in
            if case .stopping(_, let stop) = entry.value { stop.signal != .kill } else { false }
        }.keys
        if !stopping.isEmpty { killNow(stopping.sorted(), for: .secondInterrupt, processes: snapshot(), into: &actions) }
        watchLingeringStops(now: now, snapshot: snapshot, into: &actions)
    }

    /// The clock reached `now`: SIGKILL for the children whose grace period is over after a SIGTERM; SIGTERM, and a
    /// further grace period, for one whose grace period after its stop line is over.
    mutating func escalateOverdueStops(
        now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]
    ) {
        guard hasKillDeadlines else { return }
        let overdue = phases.filter { $0.value.stopDeadline.map { $0 <= now } ?? false }.keys.sorted()
        guard !overdue.isEmpty else { return }
        let afterStopLine = overdue.filter { token in
            if case .stopping(_, .leftToStopLine) = phases[token] { true } else { false }
        }
        // One snapshot for both kinds of overdue stop.
        let processes = snapshot()
        for token in afterStopLine {
            guard case .stopping(var child, _) = phases[token] else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            child.signalGroupAndTree(SIGTERM, into: &actions)
            setPhase(.stopping(child, .terminated(killAt: now.advanced(by: child.gracePeriod))), of: token)
        }
        let toKill = overdue.filter { !afterStopLine.contains($0) }
        if !toKill.isEmpty { killNow(toKill, for: .gracePeriodEnded, processes: processes, into: &actions) }
    }

    /// SIGKILL, for `cause`, to the groups and trees of the children of `tokens` being stopped, found again in
    /// `processes` (what was started since the stop began), counting the processes killed.
    private mutating func killNow(
        _ tokens: [UInt64], for cause: ProcessKill.Cause, processes: ProcessSnapshot, into actions: inout [Action]
    ) {
        for token in tokens {
            // Only children in a grace period come here: none has been killed before.
            guard case .stopping(var child, _) = phases[token] else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            let kill = ProcessKill(processes: child.runningCount(in: processes), cause: cause)
            child.signalGroupAndTree(SIGKILL, into: &actions)
            setPhase(.stopping(child, .killed(kill)), of: token)
        }
    }

    /// Children exited (`error` 0), or their wait failed (`errno`). A stopped child's group and tree get SIGKILL
    /// before its leader is reaped, so nothing it started outlives it (members that ignored SIGTERM, or were started
    /// during the grace period); one whose tree still runs within its grace period becomes a lingering stop instead.
    /// A leader to reap is left to the loop (``Action/reap(_:pid:)``). The exit of a spawn not taken in yet is
    /// applied once it is (the launches that have arrived are taken in first); other unknown tokens are ignored.
    /// A child that is stopped as it exits by itself (``Child/stopsTreeOnExit``, a service) and was not stopped yet is
    /// stopped first, at `now` (read only then), as ``stop(_:now:snapshot:into:)`` does: what it left is then waited
    /// for, and killed when the grace period ends, before its task is resumed.
    mutating func childrenExited(
        _ exits: [(token: UInt64, error: Int32)], now: () -> Instant, snapshot: () -> ProcessSnapshot,
        into actions: inout [Action]
    ) {
        // Filtered only when one leaves: most exits are of commands, and this runs on every reap.
        let leaves = { (exit: (token: UInt64, error: Int32)) in
            guard exit.error == 0, case .running(let child) = self.phases[exit.token] else { return false }
            return child.stopsTreeOnExit
        }
        if exits.contains(where: leaves) {
            stop(exits.filter(leaves).map(\.token), now: now(), snapshot: snapshot, into: &actions)
        }
        launchesExited(exits, into: &actions)
        // A reaped pid may be reused: an unexplained exit with it is no longer the one that was seen.
        if let seen = unexplainedExit?.pid, exits.contains(where: { phases[$0.token]?.runningChild?.pid == seen }) {
            unexplainedExit = nil
        }
        let stopped = exits.contains { phases[$0.token]?.isStopping ?? false }
        let processes = stopped ? snapshot() : []
        for (token, error) in exits {
            var child: Child
            let stop: Stop?
            switch phases[token] {
            case .running(let running): (child, stop) = (running, nil)
            case .stopping(let stopping, let how): (child, stop) = (stopping, how)
            default: continue
            }
            tokensByPid[child.pid] = nil
            // Closing the pidfd takes it out of the wait set (a spawn's child may hold a copy until it execs; the
            // exit was reported already, and an unknown token is ignored).
            if child.pidfd >= 0 { actions.append(.closeDescriptor(child.pidfd)) }
            if let stop {
                child.tree.extend(from: processes, excluding: tokensByPid.keys)
                // The grace period is for the whole tree: what is left of it may still be shutting down.
                if error == 0, !killsAtOnce, stop.signal != .kill, !child.tree.running(in: processes).isEmpty {
                    child.tree.leaderReaped = true
                    setPhase(.reaping(child, stop, lingers: true), of: token)
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
                setPhase(.reaping(child, stop, lingers: false), of: token)
                actions.append(.reap(token, pid: child.pid))
            } else {
                setPhase(nil, of: token)
                actions.append(.resume(child.waiter, child.lostExit(error, after: stop)))
            }
        }
    }

    /// The loop reaped the leader of `token` (see ``Action/reap(_:pid:)``), which ended with the raw `waitStatus`:
    /// its task is resumed, or, if its tree lingers, its lingering stop begins.
    mutating func leaderReaped(_ token: UInt64, waitStatus: Int32, into actions: inout [Action]) {
        guard case .reaping(_, let stop, _) = phases[token] else { return }
        let exit = ChildExit(termination: Termination(waitStatus: waitStatus), cancellation: stop?.signal, kill: stop?.kill)
        finishReaping(token, exit: exit, into: &actions)
    }

    /// The loop could not reap the leader of `token` (see ``Action/reap(_:pid:)``): `errno` tells why (e.g.
    /// someone else reaped it).
    mutating func leaderLost(_ token: UInt64, errno code: Int32, into actions: inout [Action]) {
        guard case .reaping(let child, let stop, _) = phases[token] else { return }
        finishReaping(token, exit: child.lostExit(code, after: stop), into: &actions)
    }

    /// Resumes the task of the reaped child `token` with `exit`, or begins its lingering stop.
    private mutating func finishReaping(_ token: UInt64, exit: ChildExit, into actions: inout [Action]) {
        guard case .reaping(let child, let stop, let lingers) = phases[token] else { return }
        guard lingers else {
            setPhase(nil, of: token)
            return actions.append(.resume(child.waiter, exit))
        }
        let lingering = LingeringStop(
            tree: child.tree, waiter: child.waiter, exit: exit, deadline: stop?.deadline, furtherGrace: child.gracePeriod)
        setPhase(.lingering(lingering), of: token)
    }

    /// Looks at the lingering stops when due at `now` (or at once after a second interrupt): resumes the tasks of
    /// those whose tree is gone, signals those whose deadline has come.
    mutating func watchLingeringStops(now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]) {
        guard hasLingeringStops else { return }
        guard killsAtOnce || now >= nextLingeringCheck || index.lingering.contains(where: { isDue($0, at: now) }) else {
            return
        }
        nextLingeringCheck = now.advanced(by: Self.lingeringInterval)
        let processes = snapshot()
        for token in index.lingering.sorted() {
            guard case .lingering(var stop) = phases[token] else { continue }
            stop.tree.extend(from: processes, excluding: tokensByPid.keys)
            let isOver = stop.step(processes: processes, now: now, killAtOnce: killsAtOnce, into: &actions)
            setPhase(isOver ? nil : .lingering(stop), of: token)
        }
    }

    /// Whether the next step of the lingering stop of `token` is due at `now`.
    private func isDue(_ token: UInt64, at now: Instant) -> Bool {
        if case .lingering(let stop) = phases[token] { stop.deadline.map { $0 <= now } ?? false } else { false }
    }

    /// Stops every child and launch (a stop line that one was left to counts as ended now), and adds `watchers`,
    /// waiting for every child to be stopped; tells them how many children are left (with the launches not taken in
    /// yet) and the longest grace period one of them has left at `now`, if any is left. The loop reports the outcome
    /// of the withdrawals (``Action/withdraw(_:)``) before the watchers are told.
    mutating func stopEveryChild(
        for watchers: [Watcher], now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]
    ) {
        stopWatchers += watchers
        // In token order: the children's signals go out in that order; the launches are withdrawn together.
        stop(phases.keys.sorted(), now: now, snapshot: snapshot, into: &actions)
        stopLinesEnded(phases.keys.sorted(), now: now)
        actions.append(.tellStopWatchers(watchers))
    }

    /// Tells `watchers` how many children are left (with the launches not taken in yet) and the longest grace period
    /// one of them has left at `now`, if any is left (see ``Action/tellStopWatchers(_:)``).
    func tellStopWatchers(_ watchers: [Watcher], now: Instant, into actions: inout [Action]) {
        let remaining = index.running + index.launching.count + index.lingering.count
        guard remaining > 0 else { return }
        // A launch still underway is stopped when it arrives: its grace period does not count in the longest here.
        let deadlines = phases.values.compactMap { phase in
            if case .lingering(let stop) = phase { stop.deadline } else { phase.stopDeadline }
        }
        let longestGrace = max(.zero, deadlines.map { now.duration(to: $0) }.max() ?? .zero)
        for watcher in watchers { actions.append(.tellRemaining(watcher, count: remaining, longestGrace: longestGrace)) }
    }

    /// Releases the stop watchers once no child, lingering stop or launch is left.
    mutating func releaseStopWatchers(into actions: inout [Action]) {
        guard !stopWatchers.isEmpty, phases.isEmpty else { return }
        for watcher in stopWatchers { actions.append(.release(watcher)) }
        stopWatchers = []
    }
}
