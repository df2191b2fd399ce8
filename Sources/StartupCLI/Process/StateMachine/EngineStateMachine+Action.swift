#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EngineStateMachine {
    /// What the loop does for a decision of ``EngineStateMachine``, in the order given.
    enum Action {
        /// Makes the spawn on the loop's thread, then reports it with
        /// ``EngineStateMachine/launchesArrived(_:now:snapshot:into:)``.
        case spawn(Launch)
        /// Hands the spawn to the launch threads, whose launches the loop takes in as they arrive.
        case submit(Launch)
        /// Takes back from the launch threads the spawns of these tokens that no thread has begun, then reports which
        /// with ``EngineStateMachine/launchesWithdrawn(_:of:into:)``.
        case withdraw(Set<UInt64>)
        /// Takes in the launches that have arrived and reports them with
        /// ``EngineStateMachine/launchesArrived(_:now:snapshot:into:)``; those of these tokens still to come wake the
        /// loop when they do.
        case takeArrivals(awaiting: Set<UInt64>)
        /// Tells the spawn's requester that its child has been made, with its pid.
        case announceSpawn(Launch, pid: pid_t)
        /// Starts a thread that waits for the exit of the child with this token and `pid`, which nothing else
        /// reports.
        case watchExit(UInt64, pid: pid_t)
        /// Takes the pidfd of a launch never requested out of the wait set and closes it.
        case dropPidfd(Int32)
        /// `kill(target, signal)`: the target is minus the process-group id, or the child's pid for a foreground
        /// child (its group is `startup`'s).
        case signalGroup(pid_t, Int32)
        /// Sends the signal to the tree's members still alive; with `outsideGroup`, only to those outside that
        /// process group (signalled by ``signalGroup(_:_:)`` just before).
        case signalTree(Tree, Int32, outsideGroup: pid_t?)
        /// Closes the tree's pidfds: it is not signalled again.
        case closeTree(Tree)
        /// Closes a child's pidfd, which takes it out of the wait set.
        case closeDescriptor(Int32)
        /// Reaps the exited leader `pid` of the child with this token, then reports how it ended with
        /// ``EngineStateMachine/leaderReaped(_:waitStatus:into:)`` or ``EngineStateMachine/leaderLost(_:errno:into:)``.
        case reap(UInt64, pid: pid_t)
        /// Resumes a child's task with how it ended.
        case resume(Waiter, ChildExit)
        /// Tells the new stop watchers what is left, with ``EngineStateMachine/tellStopWatchers(_:now:into:)``, once
        /// the withdrawals before it have been reported.
        case tellStopWatchers([Watcher])
        /// Tells a stop watcher how many children are left to stop and the longest grace period one of them has.
        case tellRemaining(Watcher, count: Int, longestGrace: Duration)
        /// Resumes a stop watcher: no child is left.
        case release(Watcher)
    }
}

extension EngineStateMachine.Action: Equatable
where Launch: Equatable, Launch.Tree: Equatable, Launch.Waiter: Equatable, Watcher: Equatable {}
