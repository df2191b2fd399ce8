#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ``EngineStateMachine`` asks of the processes that go with a stopped child beyond its process group: to be
/// found in a snapshot of the processes, and to tell which of them still run. ``ProcessTree`` is the real one; tests
/// use trees made of numbers.
protocol StoppableTree {
    /// Whether the leader has been reaped (its pid may belong to another process by now).
    var leaderReaped: Bool { get set }

    /// Adds what belongs to the child in `processes` (a snapshot); `excluded` are pids never to add (the engine's
    /// own children).
    mutating func extend(from processes: ProcessSnapshot, excluding excluded: Dictionary<pid_t, UInt64>.Keys)

    /// The members still running in `processes` (a snapshot taken after they were found).
    func running(in processes: ProcessSnapshot) -> [pid_t]
}

extension ProcessTree: StoppableTree {}
