/// What a run knows of one command's timing, kept small (24 bytes) because the scheduler touches
/// one per command start and end; how a command ended, unless it succeeded, is kept apart.
struct CommandRecord: Sendable {
    /// Where a command stands.
    enum Progress: UInt8, Sendable {
        /// Waiting for dependencies, or not part of the run (yet).
        case waiting
        /// Ready, waiting for a slot (marked in plans with on-demand commands; elsewhere a ready
        /// command stays `waiting`).
        case ready
        /// A gate whose dependencies have succeeded, waiting to be opened.
        case gateClosed
        /// Handed to a worker (including a retry waiting for its delay).
        case running
        /// Ended, with its final status.
        case done
    }

    /// Nanoseconds from the start of the run to the start of the first attempt; -1 until then.
    var start: Int64 = -1
    /// Nanoseconds from the start of the run to the end of the last attempt; -1 until then.
    var end: Int64 = -1
    /// Attempts made so far.
    var attempts: Int32 = 0
    /// Where the command stands.
    var progress = Progress.waiting
    /// Whether an attempt ignored its cancellation after its timeout and was left running.
    var abandoned = false

    /// The start as an offset, `nil` if it never started.
    var startOffset: Duration? { start < 0 ? nil : .nanoseconds(start) }
    /// The end as an offset, `nil` if it never started.
    var endOffset: Duration? { end < 0 ? nil : .nanoseconds(end) }
}
