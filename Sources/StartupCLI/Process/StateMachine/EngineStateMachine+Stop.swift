extension EngineStateMachine {
    /// How far the stop of a running child has gone: what was sent to it, and when the next step is due.
    enum Stop {
        /// Nothing sent: the child is left to its stop line (``Child/signalsWhenStopped`` is false). `graceEnds` is
        /// `nil` while the line runs; once it has ended, the end of the grace period, when the child gets SIGTERM.
        case leftToStopLine(graceEnds: Instant?)
        /// SIGTERM sent to its group and tree; SIGKILL follows at `killAt`, the end of its grace period.
        case terminated(killAt: Instant)
        /// SIGKILL sent to what was still there, and why.
        case killed(ProcessKill)

        /// The strongest signal sent, as the child's task is told.
        var signal: CancellationSignal {
            switch self {
            case .leftToStopLine: .leftToStopLine
            case .terminated: .terminate
            case .killed: .kill
            }
        }

        /// When the next step is due: SIGTERM at the end of the grace period after the stop line, SIGKILL at the end
        /// of the grace period after SIGTERM; `nil` while the stop line runs, and after SIGKILL.
        var deadline: Instant? {
            switch self {
            case .leftToStopLine(let graceEnds): graceEnds
            case .terminated(let killAt): killAt
            case .killed: nil
            }
        }

        /// The SIGKILL sent, if one was.
        var kill: ProcessKill? {
            if case .killed(let kill) = self { kill } else { nil }
        }
    }
}
