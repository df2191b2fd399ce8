import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child the engine is asked to start, with the task waiting for its exit.
struct SpawnRequest: Sendable {
    /// The child's token, unique for the process's lifetime.
    let token: UInt64
    /// What to run.
    let spec: ProcessSpec
    /// Where stdout+stderr go when `spec.output` is `.capture`.
    let captureDescriptor: Int32?
    /// SIGTERM to SIGKILL, when the child is stopped.
    let gracePeriod: Duration
    /// Whether a stop sends SIGTERM; if not, the child is left to its stop line until it exits or the grace period
    /// ends (then SIGKILL to what is left of its group and tree).
    let signalsWhenStopped: Bool
    /// How the working directory is entered.
    let directoryStrategy: ChildLauncher.DirectoryStrategy
    /// How the exit is noticed.
    let exitStrategy: ExitWatcher.Strategy
    /// Resumed once, when the child has been reaped (or could not be started).
    let waiter: CheckedContinuation<ChildExit, Never>
    /// Called on the engine's thread once the child has been spawned; never when it could not be.
    var onSpawned: (@Sendable (pid_t) -> Void)? = nil
    /// Whether what the child leaves behind when it exits by itself (the rest of its group, what left the group) is
    /// stopped before its task is resumed, as if the child had been stopped as it exited (see
    /// ``EngineStateMachine/childrenExited(_:now:snapshot:into:)``): a service's leftovers must not outlive it.
    var stopsTreeOnExit = false
}

/// How a spawned child ended, plus whether cancellation made the engine signal it.
struct ChildExit: Sendable, Hashable {
    /// How the child ended.
    var termination: Termination
    /// The strongest signal sent because of cancellation, if any.
    var cancellation: CancellationSignal?
    /// The SIGKILL its stop sent to what was still there, and why; `nil` if it sent none. The SIGKILL that clears
    /// what is left of a stopped child's group once its leader has exited is not one of them.
    var kill: ProcessKill?

    /// The outcome of a child whose task was cancelled before it was spawned.
    static func cancelledBeforeStart(_ spec: ProcessSpec) -> ChildExit {
        let program = spec.arguments.first ?? ""
        return ChildExit(
            termination: .failedToStart(
                errno: ECANCELED, message: "cannot run \(MessageQuoting.quoted(program)): cancelled before it started"),
            cancellation: nil)
    }
}

/// A task waiting for every child to be stopped and reaped (see ``ProcessEngine/stopEveryChild(onRemaining:)``).
struct StopWatcher: Sendable {
    /// Told, on the engine's thread, how many children are left to stop and the longest grace period one of them
    /// gets (zero when they are killed at once), when there is any.
    let onRemaining: @Sendable (_ count: Int, _ longestGrace: Duration) -> Void
    /// Resumed once no child is left.
    let done: CheckedContinuation<Void, Never>
}

/// A spawn a launch thread made, as it reaches the engine.
struct LaunchedChild: Sendable {
    /// The spawn's token.
    let token: UInt64
    /// The child's pid, or why it could not start.
    let result: Result<pid_t, SpawnFailure>
    /// The child's pidfd, already in the engine's wait set; -1 when there is none.
    let pidfd: Int32
    /// Whether the child's exit will wake the loop by itself (its pidfd is in the wait set, or the wait set reads
    /// SIGCHLD). If not, the loop takes the launch in at once: to resume the task of a failed spawn, or to start a
    /// thread that watches the exit.
    let exitWakesLoop: Bool
}

/// What other threads hand to the engine's thread: the lock-guarded half of the engine's state. The loop takes the
/// queued work in one batch each turn (arrived launches also when it needs them at once); `sleeping` tells a sender
/// whether the loop must be woken.
struct EngineInbox: Sendable {
    /// Swift jobs of tasks that prefer the engine as their executor, in order.
    var jobs: [UnownedJob] = []
    /// Children to start.
    var spawns: [SpawnRequest] = []
    /// Tokens of children whose task was cancelled.
    var stops: [UInt64] = []
    /// Tokens of children left to a stop line whose line has ended (see ``StopLineEnding``).
    var stopLinesEnded: [UInt64] = []
    /// Tokens of children a watcher thread saw exit, with 0 or the errno of the failed wait.
    var exits: [(token: UInt64, error: Int32)] = []
    /// Spawns a launch thread made. One whose exit wakes the loop, and whose spawn is not announced, wakes no one:
    /// the loop takes it on its next turn, or at once when it sees that child's exit or has to stop it
    /// (`awaitedLaunches`).
    var launched: [LaunchedChild] = []
    /// Launches the loop has to stop, or saw exit, before they arrived: their arrival wakes it.
    var awaitedLaunches: Set<UInt64> = []
    /// Tasks waiting for every child to be stopped and reaped (see ``ProcessEngine/stopEveryChild(onRemaining:)``).
    var stopWatchers: [StopWatcher] = []
    /// Set by a second interrupt: every stop from now on is SIGKILL, at once.
    var killsAtOnce = false
    /// Set when `startup` became the child subreaper: orphans are reaped after each batch of exits.
    var reapsOrphans = false
    /// The last token handed out.
    var lastToken: UInt64 = 0
    /// The loop is about to sleep, or sleeps: a sender must wake it.
    var sleeping = false

    /// The work the loop takes in one go.
    struct Batch {
        var jobs: [UnownedJob]
        var spawns: [SpawnRequest]
        var stops: [UInt64]
        var stopLinesEnded: [UInt64]
        var exits: [(token: UInt64, error: Int32)]
        var launched: [LaunchedChild]
        var stopWatchers: [StopWatcher]
        var killsAtOnce: Bool
        var reapsOrphans: Bool

        /// Nothing to do but wait (having taken in the launches, which need nothing more before an exit, a stop or
        /// the next round of housekeeping).
        var isEmpty: Bool {
            jobs.isEmpty && spawns.isEmpty && stops.isEmpty && stopLinesEnded.isEmpty && exits.isEmpty && stopWatchers.isEmpty
        }
    }

    /// Takes everything queued; marks the loop as sleeping when there was nothing but arrived launches (it takes
    /// them in, then sleeps).
    mutating func take() -> Batch {
        let batch = Batch(
            jobs: jobs, spawns: spawns, stops: stops, stopLinesEnded: stopLinesEnded, exits: exits, launched: launched,
            stopWatchers: stopWatchers,
            killsAtOnce: killsAtOnce, reapsOrphans: reapsOrphans)
        sleeping = batch.isEmpty
        if !batch.isEmpty {
            jobs = []
            spawns = []
            stops = []
            stopLinesEnded = []
            exits = []
            stopWatchers = []
        }
        launched = []
        return batch
    }

    /// Takes the launches that have arrived; of `tokens`, those not among them are awaited: their arrival will
    /// wake the loop.
    mutating func takeLaunched(awaiting tokens: some Sequence<UInt64>) -> [LaunchedChild] {
        let arrived = launched
        launched = []
        for token in tokens where !arrived.contains(where: { $0.token == token }) { awaitedLaunches.insert(token) }
        return arrived
    }

    /// Adds a launch a launch thread made; tells whether the loop must be woken for it: it sleeps and must resume a
    /// task (the spawn failed), watch the exit itself, announce the spawn (`announced`: the request has an
    /// `onSpawned`, which must not wait for the loop's next turn, up to its housekeeping interval), or awaits this
    /// launch.
    mutating func arrive(_ launch: LaunchedChild, announced: Bool = false) -> Bool {
        launched.append(launch)
        let awaited = awaitedLaunches.remove(launch.token) != nil
        guard sleeping, awaited || announced || !launch.exitWakesLoop else { return false }
        sleeping = false
        return true
    }

    /// Takes only the queued spawn requests (those the jobs just run have posted).
    mutating func takeSpawns() -> [SpawnRequest] {
        defer { spawns = [] }
        return spawns
    }

    /// Runs `change` and tells whether the loop has to be woken for it (it was sleeping; it is now awake).
    mutating func post(_ change: (inout EngineInbox) -> Void) -> Bool {
        change(&self)
        defer { sleeping = false }
        return sleeping
    }
}
