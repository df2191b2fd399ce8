extension EngineStateMachine {
    /// The tokens of the launching children and of the lingering ones, and how many children run (and how many of
    /// those have a grace period going or output to trim): what the loop asks on every turn, every spawn and every
    /// exit, kept up to date as the table of phases changes (``EngineStateMachine/setPhase(_:of:)``), so that no
    /// question costs a scan of the whole table.
    struct PhaseIndex: Equatable {
        /// The spawns requested and not taken in yet.
        private(set) var launching: Set<UInt64> = []
        /// The stopped children whose leader has been reaped while what is left of their tree still runs.
        private(set) var lingering: Set<UInt64> = []
        /// How many children have been taken in and have not exited yet, stopped or not.
        private(set) var running = 0
        /// How many running children are being stopped with a deadline for the next step (``ChildPhase/stopDeadline``).
        private(set) var withStopDeadline = 0
        /// How many running children have their output go to a capture file.
        private(set) var capturing = 0

        /// Indexes the child of `token` that leaves the phase `old` for `new` (`nil` for either: not in the table).
        mutating func move(_ token: UInt64, from old: ChildPhase?, to new: ChildPhase?) {
            if let old { add(token, old, -1) }
            if let new { add(token, new, 1) }
        }

        /// Adds the child of `token` in `phase` to the index (`step` 1), or takes it out (`step` -1).
        private mutating func add(_ token: UInt64, _ phase: ChildPhase, _ step: Int) {
            switch phase {
            case .launching:
                if step > 0 { launching.insert(token) } else { launching.remove(token) }
            case .running(let child), .stopping(let child, _):
                running += step
                if phase.stopDeadline != nil { withStopDeadline += step }
                if child.captureDescriptor != nil { capturing += step }
            case .lingering:
                if step > 0 { lingering.insert(token) } else { lingering.remove(token) }
            case .reaping:
                break
            }
        }
    }
}
