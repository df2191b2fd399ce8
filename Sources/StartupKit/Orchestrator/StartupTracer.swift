/// An inline hook around every attempt of every command, for exact intervals in a profiler: an
/// `os_signpost` interval in Instruments, a `Trace.beginSection` on Android-style tooling, a span.
///
/// Both calls are made on the thread that runs the attempt (on the main actor for a main-actor
/// command, a pool thread for a blocking one), just before and just after it, once each, and
/// never under a lock of the run. They are on the command's path, so they must be cheap and must
/// not block. Services and gates are not traced. For everything else a run does, observe its
/// events (``StartupObserver``), which are delivered off the commands' path.
public protocol StartupTracer: Sendable {
    /// An attempt of `command` is about to run on the current thread.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - attempt: The attempt, counted from 1.
    func attemptWillStart(_ command: CommandID, attempt: Int)

    /// The attempt has just ended on the current thread: returned (`error` is `nil`) or threw.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - attempt: The attempt, counted from 1.
    ///   - error: What it threw, if it did.
    func attemptDidEnd(_ command: CommandID, attempt: Int, error: (any Error)?)
}
