import StartupKitTesting

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine's state machine as the tests drive it: launches and trees of numbers, waiters and watchers named by
/// numbers and words, and times counted from zero.
typealias TestMachine = EngineStateMachine<MadeUpLaunch, String, TestInstant>

/// A spawn of numbers, whose task is `waiter`, stopped with SIGTERM and killed after five seconds.
struct MadeUpLaunch: ChildLaunch, Equatable {
    let token: UInt64
    let waiter: Int
    let isForeground = false
    let captureDescriptor: Int32? = nil
    let gracePeriod = Duration.seconds(5)
    let signalsWhenStopped = true

    /// The outcome of every withdrawn made-up launch.
    static let withdrawnExit = ChildExit(termination: .failedToStart(errno: ECANCELED, message: "withdrawn"), cancellation: nil)

    var exitIfWithdrawn: ChildExit { Self.withdrawnExit }

    func tree(leader: pid_t) -> NumberTree {
        NumberTree(leader: leader)
    }
}

/// The launch of `token`, whose task is `token` times ten.
func madeUpLaunch(_ token: UInt64) -> MadeUpLaunch {
    MadeUpLaunch(token: token, waiter: Int(token) * 10)
}

/// The launch of `token` as it arrives: made with `pid`, or failed with `failure`.
func madeUpArrival(
    _ token: UInt64, pid: pid_t = 0, failure: SpawnFailure? = nil, pidfd: Int32 = -1, exitWakesLoop: Bool = true
) -> LaunchedChild {
    LaunchedChild(
        token: token, result: failure.map { .failure($0) } ?? .success(pid), pidfd: pidfd, exitWakesLoop: exitWakesLoop)
}

/// Times are the manual clock's, counted from its zero, so tests need no clock.
typealias TestInstant = ManualClock.Instant

extension ManualClock.Instant {
    /// The time `seconds` after zero.
    static func seconds(_ seconds: Double) -> Self {
        Self(offset: .seconds(seconds))
    }
}

/// A tree found in a made-up snapshot by parent links and groups alone: the leader's descendants (through running
/// members, and the leader until it is reaped) and whatever is in a member's or the leader's group.
struct NumberTree: StoppableTree, Equatable {
    /// The child's leader.
    let leader: pid_t
    /// The members found so far.
    var members: Set<pid_t> = []
    var leaderReaped = false

    /// Adds the processes related to the leader or a member by a running parent or by group.
    mutating func extend(from processes: ProcessSnapshot, excluding excluded: Dictionary<pid_t, UInt64>.Keys) {
        var added = true
        while added {
            added = false
            for process in processes.entries where process.pid != leader && !members.contains(process.pid) {
                guard !excluded.contains(process.pid) else { continue }
                let parentRuns =
                    (process.parent == leader && !leaderReaped)
                    || running(in: processes).contains(process.parent)
                guard parentRuns || process.group == leader || members.contains(process.group) else { continue }
                members.insert(process.pid)
                added = true
            }
        }
    }

    /// The members present in `processes` and not zombies.
    func running(in processes: ProcessSnapshot) -> [pid_t] {
        processes.entries.filter { members.contains($0.pid) && !$0.isZombie }.map(\.pid)
    }
}

/// A process in a made-up snapshot, in session 1, started at tick 1.
func madeUpProcess(_ pid: pid_t, parent: pid_t, group: pid_t, zombie: Bool = false) -> ProcessSnapshot.Entry {
    ProcessSnapshot.Entry(pid: pid, parent: parent, group: group, session: 1, startTime: 1, isZombie: zombie)
}

/// A child with leader `pid`, whose task is `waiter`, stopped with SIGTERM (unless `signalsWhenStopped` is false)
/// and killed after `grace`.
func madeUpChild(
    pid: pid_t, waiter: Int, grace: Duration = .seconds(5), signalsWhenStopped: Bool = true, foreground: Bool = false,
    pidfd: Int32 = -1
) -> TestMachine.Child {
    TestMachine.Child(
        pid: pid, isForeground: foreground, pidfd: pidfd, waiter: waiter, captureDescriptor: nil, gracePeriod: grace,
        signalsWhenStopped: signalsWhenStopped, tree: NumberTree(leader: pid))
}

/// Hands out a fixed snapshot and counts how often it is asked for.
final class SnapshotSource {
    /// The processes every snapshot shows.
    var processes: ProcessSnapshot
    /// How many snapshots were taken.
    private(set) var taken = 0

    init(_ processes: ProcessSnapshot) {
        self.processes = processes
    }

    /// A snapshot (counted).
    func snapshot() -> ProcessSnapshot {
        taken += 1
        return processes
    }
}

/// The decisions as arrays of actions, as the tests compare them: each runs the state machine's decision with an empty
/// buffer (the loop reuses one) and returns what it appended.
extension EngineStateMachine {
    /// Collects the actions `decide` appends.
    private static func actions(_ decide: (inout [Action]) -> Void) -> [Action] {
        var actions: [Action] = []
        decide(&actions)
        return actions
    }

    mutating func stop(_ tokens: [UInt64], now: Instant, snapshot: () -> ProcessSnapshot) -> [Action] {
        Self.actions { stop(tokens, now: now, snapshot: snapshot, into: &$0) }
    }

    mutating func killAtOnce(now: Instant, snapshot: () -> ProcessSnapshot) -> [Action] {
        Self.actions { killAtOnce(now: now, snapshot: snapshot, into: &$0) }
    }

    mutating func escalateOverdueStops(now: Instant, snapshot: () -> ProcessSnapshot) -> [Action] {
        Self.actions { escalateOverdueStops(now: now, snapshot: snapshot, into: &$0) }
    }

    /// `now` is read only for a child stopped as it exits by itself (``ChildLaunch/stopsTreeOnExit``).
    mutating func childrenExited(
        _ exits: [(token: UInt64, error: Int32)], now: Instant? = nil, snapshot: () -> ProcessSnapshot
    ) -> [Action] {
        Self.actions { childrenExited(exits, now: { now! }, snapshot: snapshot, into: &$0) }
    }

    mutating func leaderReaped(_ token: UInt64, waitStatus: Int32) -> [Action] {
        Self.actions { leaderReaped(token, waitStatus: waitStatus, into: &$0) }
    }

    mutating func leaderLost(_ token: UInt64, errno code: Int32) -> [Action] {
        Self.actions { leaderLost(token, errno: code, into: &$0) }
    }

    mutating func watchLingeringStops(now: Instant, snapshot: () -> ProcessSnapshot) -> [Action] {
        Self.actions { watchLingeringStops(now: now, snapshot: snapshot, into: &$0) }
    }

    mutating func stopEveryChild(for watchers: [Watcher], now: Instant, snapshot: () -> ProcessSnapshot) -> [Action] {
        Self.actions { stopEveryChild(for: watchers, now: now, snapshot: snapshot, into: &$0) }
    }

    func tellStopWatchers(_ watchers: [Watcher], now: Instant) -> [Action] {
        Self.actions { tellStopWatchers(watchers, now: now, into: &$0) }
    }

    mutating func releaseStopWatchers() -> [Action] {
        Self.actions { releaseStopWatchers(into: &$0) }
    }

    mutating func launchRequested(_ launch: Launch, processors: Int) -> [Action] {
        Self.actions { launchRequested(launch, processors: processors, into: &$0) }
    }

    mutating func launchesArrived(
        _ launches: [LaunchedChild], now: Instant, snapshot: () -> ProcessSnapshot
    ) -> [Action] {
        Self.actions { launchesArrived(launches, now: { now }, snapshot: snapshot, into: &$0) }
    }

    mutating func launchesWithdrawn(_ withdrawn: Set<UInt64>, of asked: Set<UInt64>) -> [Action] {
        Self.actions { launchesWithdrawn(withdrawn, of: asked, into: &$0) }
    }

    func exitedChildFound(_ pid: pid_t) -> [Action] {
        Self.actions { exitedChildFound(pid, into: &$0) }
    }
}
