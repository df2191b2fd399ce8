#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChildStops {
    /// What the loop does for a decision of ``ChildStops``, in the order given.
    enum Action {
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
        /// ``ChildStops/leaderReaped(_:waitStatus:)`` or ``ChildStops/leaderLost(_:errno:)``.
        case reap(UInt64, pid: pid_t)
        /// Resumes a child's task with how it ended.
        case resume(Waiter, ChildExit)
        /// Tells a stop watcher how many children are left to stop and the longest grace period one of them has.
        case tellRemaining(Watcher, count: Int, longestGrace: Duration)
        /// Resumes a stop watcher: no child is left.
        case release(Watcher)
    }
}

extension ChildStops.Action: Equatable where Tree: Equatable, Waiter: Equatable, Watcher: Equatable {}
