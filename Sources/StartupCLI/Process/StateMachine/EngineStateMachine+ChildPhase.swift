extension EngineStateMachine {
    /// Where a child is between the request for its spawn and the resumption of its task: the one record the state
    /// machine keeps of it, under its token. A child moves through these in order, skipping those that do not apply
    /// (a failed or withdrawn spawn leaves from `launching`, a child not stopped goes from `running` to `reaping`, a
    /// child whose tree is gone, or was killed, from `reaping` to its end); at its end its record is removed.
    enum ChildPhase {
        /// Its spawn is requested and not taken in yet: the loop or a launch thread makes it.
        case launching(Launching)
        /// It runs and has not been stopped.
        case running(Child)
        /// It runs and is being stopped: how far the stop has gone.
        case stopping(Child, Stop)
        /// Its exit was seen and the loop is reaping its leader (``Action/reap(_:pid:)``): the child, how far its
        /// stop had gone (`nil` if it was not stopped: it ended by itself), and whether its stop lingers once the
        /// leader is reaped (what is left of its tree still runs within its grace period).
        case reaping(Child, Stop?, lingers: Bool)
        /// Its leader has exited and been reaped while what is left of its tree, stopped, still runs.
        case lingering(LingeringStop)

        /// Whether it runs and is being stopped.
        var isStopping: Bool {
            if case .stopping = self { true } else { false }
        }

        /// The child while it runs, stopped or not.
        var runningChild: Child? {
            switch self {
            case .running(let child), .stopping(let child, _): child
            case .launching, .reaping, .lingering: nil
            }
        }

        /// When the next step of the stop of a running child is due, if one is: the end of its grace period.
        var stopDeadline: Instant? {
            if case .stopping(_, let stop) = self { stop.deadline } else { nil }
        }
    }
}
