#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ``EngineStateMachine`` asks of a spawn the loop makes or hands to the launch threads: its token, the task
/// waiting for it, and what the child it makes is. ``LaunchThreads/Launch`` is the real one; tests use launches of
/// numbers.
protocol ChildLaunch {
    /// What the child's task waits on.
    associatedtype Waiter
    /// What goes with the child beyond its process group.
    associatedtype Tree: StoppableTree

    /// The spawn's token.
    var token: UInt64 { get }
    /// The task waiting for the child's exit.
    var waiter: Waiter { get }
    /// Whether the child shares `startup`'s process group (``ProcessSpec/foreground``).
    var isForeground: Bool { get }
    /// The capture file the child's output goes to, if it is captured.
    var captureDescriptor: Int32? { get }
    /// SIGTERM to SIGKILL when the child is stopped.
    var gracePeriod: Duration { get }
    /// Whether a stop sends SIGTERM, or leaves the child to its stop line.
    var signalsWhenStopped: Bool { get }
    /// What the task is told when the spawn is withdrawn before it is made.
    var exitIfWithdrawn: ChildExit { get }
    /// Whether the child is stopped as it exits by itself (``SpawnRequest/stopsTreeOnExit``).
    var stopsTreeOnExit: Bool { get }

    /// The tree of the child made with the pid `leader`, empty until it is stopped.
    func tree(leader: pid_t) -> Tree
}

extension ChildLaunch {
    /// A child that exits by itself leaves what it started running, unless its launch says otherwise.
    var stopsTreeOnExit: Bool { false }
}

extension LaunchThreads.Launch: ChildLaunch {
    var token: UInt64 { request.token }
    var waiter: CheckedContinuation<ChildExit, Never> { request.waiter }
    var isForeground: Bool { request.spec.foreground }
    var captureDescriptor: Int32? { request.spec.output == .capture ? request.captureDescriptor : nil }
    var gracePeriod: Duration { request.gracePeriod }
    var signalsWhenStopped: Bool { request.signalsWhenStopped }
    var exitIfWithdrawn: ChildExit { .cancelledBeforeStart(request.spec) }
    var stopsTreeOnExit: Bool { request.stopsTreeOnExit }

    func tree(leader: pid_t) -> ProcessTree {
        ProcessTree(leader: leader, marker: marker)
    }
}
