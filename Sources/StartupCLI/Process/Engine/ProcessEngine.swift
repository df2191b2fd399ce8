import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one thread that runs child processes, as make does: it waits for their exits, reaps them and stops the
/// ones whose task is cancelled, all in one loop (`EngineLoop`). The loop makes the spawns (`ChildSpawn`) itself
/// while no more children run than there are processors; beyond that, since a spawn holds its caller until the child
/// has exec'd, two launch threads (`LaunchThreads`) make them, so the loop goes on reaping and children exec side by
/// side.
///
/// It is also a task executor: a run whose task prefers it (`Task(executorPreference:)`, as `startup run` does)
/// schedules its commands on the same thread, so a command's exit and the choice of the next command follow each
/// other with no thread hand-off. Callers on other threads hand their requests over through `inbox` and wake the
/// loop only when it sleeps.
package final class ProcessEngine: Sendable {
    /// The process's engine; its thread starts on first use.
    package static let shared = ProcessEngine()

    /// Stack of the engine's thread: it runs the jobs of the tasks that prefer it, like any worker thread.
    private static let stackSize = 8 << 20

    /// Guards what other threads hand to the loop: jobs, spawn and stop requests, flags.
    let inbox = Locked(EngineInbox())
    /// What the loop sleeps on.
    let waitSet: EngineWaitSet
    /// Sent by ``killAtOnce()`` to the waits of a stop that are not the engine's own: the stop lines running.
    package let killAtOnceNotice = KillAtOnceNotice()

    /// Guards whether ``ownEveryChild()`` was called, read once when the engine starts.
    private static let ownsEveryChild = Locked(false)

    private init() {
        waitSet = EngineWaitSet(readingChildSignals: Self.ownsEveryChild.withLock { $0 })
        DedicatedThread.run(stackSize: Self.stackSize) { [self] in
            if !waitSet.readsChildSignals { Self.acceptChildSignals() }
            var loop = EngineLoop(engine: self)
            loop.run()
        }
    }

    /// Makes the engine the only one to wait for this process's children, as make is (the `startup` binary, whose
    /// children all come from the engine): it then learns of every exit from SIGCHLD, through one signalfd, and
    /// finds the exited children with `waitid`, where it otherwise opens a pidfd for each child and watches it
    /// (Linux; a no-op elsewhere). Blocks SIGCHLD in the calling thread and resets an inherited "ignore" (which
    /// would have the kernel reap the children before the engine could): call it first thing on the main thread,
    /// before any other thread starts (they inherit the blocked signal) and before the engine's first use.
    package static func ownEveryChild() {
        #if os(Linux)
            var childSignal = sigset_t()
            sigemptyset(&childSignal)
            sigaddset(&childSignal, SIGCHLD)
            pthread_sigmask(SIG_BLOCK, &childSignal, nil)
            var defaultAction = sigaction()
            defaultAction.__sigaction_handler.sa_handler = SIG_DFL
            sigaction(SIGCHLD, &defaultAction, nil)
            ownsEveryChild.withLock { $0 = true }
        #endif
    }

    /// Starts `request`'s child and suspends until it has been reaped. Cancelling the calling task stops the
    /// child (see `EngineLoop`); a task cancelled before the request is handed over starts nothing. A child that
    /// `signalsWhenStopped` false leaves to its stop line gets its grace period once `stopLineEnding` says the line
    /// has ended. With
    /// `stopsTreeOnExit`, a child that exits by itself is stopped as it exits (what it left gets SIGTERM, and SIGKILL
    /// after the grace period), and the call returns once that is done.
    func run(
        _ spec: ProcessSpec,
        captureDescriptor: Int32?,
        gracePeriod: Duration,
        signalsWhenStopped: Bool,
        directoryStrategy: ChildLauncher.DirectoryStrategy,
        exitStrategy: ExitWatcher.Strategy,
        stopLineEnding: StopLineEnding? = nil,
        onSpawned: (@Sendable (pid_t) -> Void)? = nil,
        stopsTreeOnExit: Bool = false
    ) async -> ChildExit {
        let token = inbox.withLock { inbox in
            inbox.lastToken += 1
            return inbox.lastToken
        }
        stopLineEnding?.bind(token)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<ChildExit, Never>) in
                let request = SpawnRequest(
                    token: token, spec: spec, captureDescriptor: captureDescriptor, gracePeriod: gracePeriod,
                    signalsWhenStopped: signalsWhenStopped, directoryStrategy: directoryStrategy,
                    exitStrategy: exitStrategy, waiter: waiter, onSpawned: onSpawned, stopsTreeOnExit: stopsTreeOnExit)
                // Read under the lock: a cancellation after this point posts its stop after this spawn.
                var cancelled = false
                post { inbox in
                    cancelled = Task.isCancelled
                    if !cancelled { inbox.spawns.append(request) }
                }
                if cancelled { waiter.resume(returning: .cancelledBeforeStart(spec)) }
            }
        } onCancel: {
            post { $0.stops.append(token) }
        }
    }

    /// Sends SIGKILL at once to every child being stopped, and to every child stopped from now on (a second
    /// interrupt: the user does not want to wait for the grace period), and sends ``killAtOnceNotice`` to the waits
    /// in progress (the stop lines running are stopped, so killed too).
    package func killAtOnce() {
        // The notice first: a service the engine kills ends its stop, and the shutdown's next stop line must then
        // find the notice sent, or it would start.
        killAtOnceNotice.send { post { $0.killsAtOnce = true } }
    }

    /// Stops every child still running, as a cancelled task's (SIGTERM to its group and tree, SIGKILL when its
    /// grace period ends, or at once after ``killAtOnce()``), and returns once each has been reaped. For the binary
    /// before it exits: a task the run abandoned (a timed-out command that ignored SIGTERM, a stop line or service
    /// over its shutdown timeout) may have left its child running, which must not outlive `startup`.
    ///
    /// - Parameter onRemaining: Called first, on the engine's thread, when some child is left, with how many and the
    ///   longest grace period one of them gets (zero when they are killed at once); not called when none is left.
    package func stopEveryChild(onRemaining: @escaping @Sendable (_ count: Int, _ longestGrace: Duration) -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            post { $0.stopWatchers.append(StopWatcher(onRemaining: onRemaining, done: done)) }
        }
    }

    /// Makes `startup` the child subreaper (Linux), so descendants of its commands that are orphaned are
    /// reparented to it rather than to init, where a stop can still find them (see `ProcessTree`); the engine
    /// then reaps the ones that exit, as they exit (see `EngineLoop`). Only for a process whose children all come
    /// from the engine (the binary).
    package func adoptOrphans() {
        #if os(Linux)
            guard let prctl = SpawnExtensions.prctl, prctl(Self.setChildSubreaper, 1, 0, 0, 0) == 0 else { return }
            post { $0.reapsOrphans = true }
        #endif
    }

    /// Unblocks SIGCHLD on the calling thread, the engine's, before it starts the launch threads, which inherit the
    /// mask and spawn every child, so theirs are the threads the children's exits signal. The engine's thread may
    /// inherit SIGCHLD blocked (from a Dispatch worker); a blocked SIGCHLD is never dropped as ignored, so the kernel
    /// woke some other thread of `startup` to discard it, once for every command that exits.
    private static func acceptChildSignals() {
        var childSignal = sigset_t()
        sigemptyset(&childSignal)
        sigaddset(&childSignal, SIGCHLD)
        pthread_sigmask(SIG_UNBLOCK, &childSignal, nil)
    }

    /// `PR_SET_CHILD_SUBREAPER`.
    private static let setChildSubreaper: Int32 = 36

    /// Applies `change` to the inbox and wakes the loop if it sleeps.
    func post(_ change: (inout EngineInbox) -> Void) {
        if inbox.withLock({ $0.post(change) }) { waitSet.wake() }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ProcessEngine: TaskExecutor {
    /// Queues a job of a task that prefers the engine; the loop runs it.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        post { $0.jobs.append(job) }
    }
}
