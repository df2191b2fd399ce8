#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EngineStateMachine {
    /// A child the engine runs: what it is, and what goes with it beyond its process group.
    struct Child {
        /// The child's pid, also its process-group id unless it is a foreground child.
        let pid: pid_t
        /// Whether it shares `startup`'s process group (``ProcessSpec/foreground``): signals go to it, not a group.
        let isForeground: Bool
        /// Its pidfd in the wait set, or -1 when a watcher thread waits for it.
        let pidfd: Int32
        /// The task waiting for the exit.
        let waiter: Waiter
        /// The capture file its output goes to, trimmed to its tail while it runs.
        let captureDescriptor: Int32?
        /// SIGTERM to SIGKILL when it is stopped.
        let gracePeriod: Duration
        /// Whether a stop sends SIGTERM, or leaves it to its stop line (see ``SpawnRequest/signalsWhenStopped``).
        let signalsWhenStopped: Bool
        /// What goes with it beyond its group, found when it is stopped.
        var tree: Tree
        /// Whether it is stopped as it exits by itself (``ChildLaunch/stopsTreeOnExit``).
        var stopsTreeOnExit = false

        /// What `kill` takes to signal the child's process group, or only the child when it is a foreground one.
        var groupTarget: pid_t { isForeground ? pid : -pid }

        /// Signals the child's process group and the members of its tree outside that group: each process once.
        func signalGroupAndTree(_ signal: Int32, into actions: inout [Action]) {
            actions.append(.signalGroup(groupTarget, signal))
            actions.append(.signalTree(tree, signal, outsideGroup: isForeground ? nil : pid))
        }

        /// How many of its processes run in `processes` (a snapshot): the child itself (unreaped) and its tree's.
        func runningCount(in processes: ProcessSnapshot) -> Int {
            let leader = processes[pid].map { $0.isZombie ? 0 : 1 } ?? 0
            return leader + tree.running(in: processes).count
        }

        /// The outcome when the child could not be waited for (e.g. someone else reaped it, or SIGCHLD is ignored),
        /// after its `stop`, if it was stopped.
        func lostExit(_ code: Int32, after stop: Stop?) -> ChildExit {
            ChildExit(
                termination: .failedToStart(errno: code, message: "lost track of process \(pid): \(errnoDescription(code))"),
                cancellation: stop?.signal, kill: stop?.kill)
        }
    }
}
