#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EngineStateMachine {
    /// A stopped child whose leader has exited (and been reaped) while processes of its group, or that left it,
    /// still run: a wrapper shell (`sh -c 'cd app && ./server'`, `bash start.sh`) that died of its SIGTERM while the
    /// server it started still shuts down. The grace period is for the whole tree: the child's task is resumed once
    /// they are all gone, or once those still there when the grace period ends have been killed.
    struct LingeringStop {
        /// What is left: the group's members and what left the group, signalled through their pidfds (the leader's
        /// pid, reaped, may be reused, so its group is never signalled by number again).
        var tree: Tree
        /// The task waiting for the child.
        let waiter: Waiter
        /// How the leader ended, and what the stop has done so far.
        var exit: ChildExit
        /// When the next step is due: SIGKILL after a SIGTERM, SIGTERM at the end of the grace period after a stop
        /// line; `nil` while the stop line the child was left to still runs.
        var deadline: Instant?
        /// The grace period: after the stop line ends, and after a SIGTERM sent at `deadline`.
        let furtherGrace: Duration

        /// Takes the next step for the processes in `processes` (a snapshot) at `now`: resumes the task once none of
        /// them runs, or at the look after they got SIGKILL, and is over; else, when the deadline has come (or
        /// `killAtOnce`), sends SIGTERM (after a stop line's time) or SIGKILL (after a SIGTERM) to those still
        /// running.
        mutating func step(
            processes: ProcessSnapshot, now: Instant, killAtOnce: Bool, into actions: inout [Action]
        ) -> Bool {
            let running = tree.running(in: processes)
            // After SIGKILL nothing is waited for: a process stuck in the kernel must not hold the stop forever.
            guard !running.isEmpty, exit.cancellation != .kill else {
                actions.append(.closeTree(tree))
                actions.append(.resume(waiter, exit))
                return true
            }
            guard killAtOnce || deadline.map({ now >= $0 }) == true else { return false }
            if !killAtOnce, exit.cancellation == .leftToStopLine {
                exit.cancellation = .terminate
                deadline = now.advanced(by: furtherGrace)
                actions.append(.signalTree(tree, SIGTERM, outsideGroup: nil))
                return false
            }
            exit.cancellation = .kill
            exit.kill = ProcessKill(processes: running.count, cause: killAtOnce ? .secondInterrupt : .gracePeriodEnded)
            actions.append(.signalTree(tree, SIGKILL, outsideGroup: nil))
            return false
        }
    }
}
