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
/// `Launch` is a spawn (with the task waiting for it), `Watcher` a task waiting for every child to be stopped.
/// Where a decision needs another thread in the middle (to withdraw a launch, to take in launches that arrived, to
/// reap), it is an action the loop reports the outcome of with a further input.
///
/// No key paths here (`\.killDeadline`): in generic code, even specialised, a key path is built from its mangled
/// name at run time on every use, which would cost each turn of the loop more than the rest of its decisions.
struct EngineStateMachine<Launch: ChildLaunch, Watcher, Instant: InstantProtocol<Duration>> {
    /// What goes with a child beyond its process group.
    typealias Tree = Launch.Tree
    /// What a child's task waits on.
    typealias Waiter = Launch.Waiter

    /// The spawns requested and not taken in yet, by token (updated in `EngineStateMachine+Launches.swift`).
    var launching: [UInt64: Launching] = [:]
    /// The children running, by token.
    private(set) var children: [UInt64: Child] = [:]
    /// The token of each running child, by pid (tells adopted orphans from our own children).
    private var tokensByPid: [pid_t: UInt64] = [:]
    /// Children whose exit was seen and whose leader the loop is reaping (see ``Action/reap(_:pid:)``), and whether
    /// their stop lingers (what is left of their tree still runs; its deadline is the child's `killDeadline`, none
    /// yet while the stop line it was left to runs).
    private var reaping: [UInt64: (child: Child, lingers: Bool)] = [:]
    /// Stopped children whose leader has exited while the rest of their tree still runs, by token.
    private var lingering: [UInt64: LingeringStop] = [:]
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
        reaping[token].map { $0.child.signal == nil } ?? false
    }

    /// The token of the running child `pid`, if it is one.
    func token(ofPid pid: pid_t) -> UInt64? {
        tokensByPid[pid]
    }

    /// The nearest time a decision is due (the end of a grace period, the next look at lingering stops), if any.
    var nextDeadline: Instant? {
        let kills = children.values.lazy.compactMap { $0.killDeadline }.min()
        guard !lingering.isEmpty else { return kills }
        return kills.map { min($0, nextLingeringCheck) } ?? nextLingeringCheck
    }

    /// Whether a running child has a grace period going (``escalateOverdueStops(now:snapshot:into:)`` has something to
    /// look at): a scan of the running children, which the loop makes on every turn.
    var hasKillDeadlines: Bool {
        children.values.contains { $0.killDeadline != nil }
    }

    /// Whether there are lingering stops to look at (``watchLingeringStops(now:snapshot:into:)``).
    var hasLingeringStops: Bool { !lingering.isEmpty }

    /// Whether ``releaseStopWatchers(into:)`` has watchers to release.
    var hasStopWatchers: Bool { !stopWatchers.isEmpty }

    /// Takes in a child just spawned under `token`.
    mutating func childStarted(_ child: Child, token: UInt64) {
        children[token] = child
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
        guard tokens.contains(where: { children[$0].map { $0.signal == nil } ?? false }) else { return }
        let processes = snapshot()
        for token in tokens {
            guard var child = children[token], child.signal == nil else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            let atOnce = killsAtOnce || child.gracePeriod <= .zero
            if atOnce || child.signalsWhenStopped {
                if atOnce {
                    child.kill = ProcessKill(
                        processes: child.runningCount(in: processes), cause: killsAtOnce ? .secondInterrupt : .noGracePeriod)
                }
                child.signalGroupAndTree(atOnce ? SIGKILL : SIGTERM, into: &actions)
                child.signal = atOnce ? .kill : .terminate
            } else {
                child.signal = .leftToStopLine
            }
            child.killDeadline = atOnce || child.signal == .leftToStopLine ? nil : now.advanced(by: child.gracePeriod)
            children[token] = child
        }
    }

    /// The stop lines that the children of `tokens` were left to have ended at `now`: each child's grace period
    /// begins, to end by itself (or what is left of its tree, if its leader has exited), after which it gets SIGTERM
    /// and SIGKILL after a further grace period. Tokens of children not left to a running stop line are ignored.
    mutating func stopLinesEnded(_ tokens: [UInt64], now: Instant) {
        for token in tokens {
            if var child = children[token], child.signal == .leftToStopLine, child.killDeadline == nil {
                child.killDeadline = now.advanced(by: child.gracePeriod)
                children[token] = child
            } else if var entry = reaping[token], entry.lingers, entry.child.killDeadline == nil {
                entry.child.killDeadline = now.advanced(by: entry.child.gracePeriod)
                reaping[token] = entry
            } else if var stop = lingering[token], stop.deadline == nil {
                stop.deadline = now.advanced(by: stop.furtherGrace)
                lingering[token] = stop
            }
        }
    }

    /// A second interrupt came: every child in its grace period gets SIGKILL, every lingering stop is looked at and
    /// killed, and every later stop is SIGKILL at once.
    mutating func killAtOnce(now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]) {
        guard !killsAtOnce else { return }
        killsAtOnce = true
        let stopping = children.filter { $0.value.signal == .terminate || $0.value.signal == .leftToStopLine }.keys
        if !stopping.isEmpty { killNow(stopping.sorted(), for: .secondInterrupt, processes: snapshot(), into: &actions) }
        watchLingeringStops(now: now, snapshot: snapshot, into: &actions)
    }

    /// The clock reached `now`: SIGKILL for the children whose grace period is over after a SIGTERM; SIGTERM, and a
    /// further grace period, for one whose grace period after its stop line is over.
    mutating func escalateOverdueStops(
        now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]
    ) {
        guard hasKillDeadlines else { return }
        let overdue = children.filter { $0.value.killDeadline.map { $0 <= now } ?? false }.keys.sorted()
        guard !overdue.isEmpty else { return }
        let afterStopLine = overdue.filter { children[$0]?.signal == .leftToStopLine }
        // One snapshot for both kinds of overdue stop.
        let processes = snapshot()
        for token in afterStopLine {
            guard var child = children[token] else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            child.signalGroupAndTree(SIGTERM, into: &actions)
            child.signal = .terminate
            child.killDeadline = now.advanced(by: child.gracePeriod)
            children[token] = child
        }
        let toKill = overdue.filter { !afterStopLine.contains($0) }
        if !toKill.isEmpty { killNow(toKill, for: .gracePeriodEnded, processes: processes, into: &actions) }
    }

    /// SIGKILL, for `cause`, to the groups and trees of `tokens`, found again in `processes` (what was started since
    /// the stop began), counting the processes killed.
    private mutating func killNow(
        _ tokens: [UInt64], for cause: ProcessKill.Cause, processes: ProcessSnapshot, into actions: inout [Action]
    ) {
        for token in tokens {
            guard var child = children[token] else { continue }
            child.tree.extend(from: processes, excluding: tokensByPid.keys)
            // Only children in a grace period come here: none has been killed before.
            child.kill = ProcessKill(processes: child.runningCount(in: processes), cause: cause)
            child.signalGroupAndTree(SIGKILL, into: &actions)
            child.signal = .kill
            child.killDeadline = nil
            children[token] = child
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
            exit.error == 0 && (self.children[exit.token].map { $0.stopsTreeOnExit && $0.signal == nil } ?? false)
        }
        if exits.contains(where: leaves) {
            stop(exits.filter(leaves).map(\.token), now: now(), snapshot: snapshot, into: &actions)
        }
        launchesExited(exits, into: &actions)
        // A reaped pid may be reused: an unexplained exit with it is no longer the one that was seen.
        if let seen = unexplainedExit?.pid, exits.contains(where: { children[$0.token]?.pid == seen }) {
            unexplainedExit = nil
        }
        let stopped = exits.contains { children[$0.token]?.signal != nil }
        let processes = stopped ? snapshot() : []
        for (token, error) in exits {
            guard var child = children.removeValue(forKey: token) else { continue }
            tokensByPid[child.pid] = nil
            // Closing the pidfd takes it out of the wait set (a spawn's child may hold a copy until it execs; the
            // exit was reported already, and an unknown token is ignored).
            if child.pidfd >= 0 { actions.append(.closeDescriptor(child.pidfd)) }
            if child.signal != nil {
                child.tree.extend(from: processes, excluding: tokensByPid.keys)
                // The grace period is for the whole tree: what is left of it may still be shutting down.
                if error == 0, !killsAtOnce, child.signal != .kill, child.killDeadline != nil || child.signal == .leftToStopLine,
                    !child.tree.running(in: processes).isEmpty
                {
                    child.tree.leaderReaped = true
                    reaping[token] = (child, true)
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
                reaping[token] = (child, false)
                actions.append(.reap(token, pid: child.pid))
            } else {
                actions.append(.resume(child.waiter, child.lostExit(error)))
            }
        }
    }

    /// The loop reaped the leader of `token` (see ``Action/reap(_:pid:)``), which ended with the raw `waitStatus`:
    /// its task is resumed, or, if its tree lingers, its lingering stop begins.
    mutating func leaderReaped(_ token: UInt64, waitStatus: Int32, into actions: inout [Action]) {
        guard let (child, _) = reaping[token] else { return }
        let exit = ChildExit(
            termination: Termination(waitStatus: waitStatus), cancellation: child.signal,
            kill: child.kill)
        finishReaping(token, exit: exit, into: &actions)
    }

    /// The loop could not reap the leader of `token` (see ``Action/reap(_:pid:)``): `errno` tells why (e.g.
    /// someone else reaped it).
    mutating func leaderLost(_ token: UInt64, errno code: Int32, into actions: inout [Action]) {
        guard let (child, _) = reaping[token] else { return }
        finishReaping(token, exit: child.lostExit(code), into: &actions)
    }

    /// Resumes the task of the reaped child `token` with `exit`, or begins its lingering stop.
    private mutating func finishReaping(_ token: UInt64, exit: ChildExit, into actions: inout [Action]) {
        guard let (child, lingers) = reaping.removeValue(forKey: token) else { return }
        guard lingers else { return actions.append(.resume(child.waiter, exit)) }
        lingering[token] = LingeringStop(
            tree: child.tree, waiter: child.waiter, exit: exit, deadline: child.killDeadline, furtherGrace: child.gracePeriod)
    }

    /// Looks at the lingering stops when due at `now` (or at once after a second interrupt): resumes the tasks of
    /// those whose tree is gone, signals those whose deadline has come.
    mutating func watchLingeringStops(now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]) {
        guard !lingering.isEmpty else { return }
        guard killsAtOnce || now >= nextLingeringCheck || lingering.values.contains(where: { $0.deadline.map { $0 <= now } ?? false })
        else {
            return
        }
        nextLingeringCheck = now.advanced(by: Self.lingeringInterval)
        let processes = snapshot()
        for token in lingering.keys.sorted() {
            guard var stop = lingering[token] else { continue }
            stop.tree.extend(from: processes, excluding: tokensByPid.keys)
            let isOver = stop.step(processes: processes, now: now, killAtOnce: killsAtOnce, into: &actions)
            lingering[token] = isOver ? nil : stop
        }
    }

    /// Stops every child and launch (a stop line that one was left to counts as ended now), and adds `watchers`,
    /// waiting for every child to be stopped; tells them how many
    /// children are left (with the launches not taken in yet) and the longest grace period one of them has left at
    /// `now`, if any is left. The loop reports the outcome of the withdrawals (``Action/withdraw(_:)``) before the
    /// watchers are told.
    mutating func stopEveryChild(
        for watchers: [Watcher], now: Instant, snapshot: () -> ProcessSnapshot, into actions: inout [Action]
    ) {
        stopWatchers += watchers
        stop(children.keys.sorted() + launching.keys.sorted(), now: now, snapshot: snapshot, into: &actions)
        stopLinesEnded(children.keys.sorted() + reaping.keys.sorted() + lingering.keys.sorted(), now: now)
        actions.append(.tellStopWatchers(watchers))
    }

    /// Tells `watchers` how many children are left (with the launches not taken in yet) and the longest grace period
    /// one of them has left at `now`, if any is left (see ``Action/tellStopWatchers(_:)``).
    func tellStopWatchers(_ watchers: [Watcher], now: Instant, into actions: inout [Action]) {
        let remaining = children.count + launching.count + lingering.count
        guard remaining > 0 else { return }
        // A launch still underway is stopped when it arrives: its grace period does not count in the longest here.
        let deadlines = children.values.compactMap { $0.killDeadline } + lingering.values.compactMap { $0.deadline }
        let longestGrace = max(.zero, deadlines.map { now.duration(to: $0) }.max() ?? .zero)
        for watcher in watchers { actions.append(.tellRemaining(watcher, count: remaining, longestGrace: longestGrace)) }
    }

    /// Releases the stop watchers once no child, lingering stop or launch is left.
    mutating func releaseStopWatchers(into actions: inout [Action]) {
        guard !stopWatchers.isEmpty, launching.isEmpty, children.isEmpty, reaping.isEmpty, lingering.isEmpty else {
            return
        }
        for watcher in stopWatchers { actions.append(.release(watcher)) }
        stopWatchers = []
    }
}
