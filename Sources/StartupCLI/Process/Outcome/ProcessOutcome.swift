/// The result of running one child process.
package struct ProcessOutcome: Sendable, Hashable {
    /// How the process ended.
    package var termination: Termination
    /// Captured stdout+stderr tail (at most 64 KiB) for `.capture`; empty otherwise.
    package var output: [UInt8]
    /// `true` when the captured output was longer than what `output` holds.
    package var outputTruncated: Bool
    /// Set when cancellation made us signal the process group; `nil` when the process ended on its own.
    package var cancellation: CancellationSignal?
    /// The SIGKILL its stop had to send, and why; `nil` when it sent none (its `processes` are 0 when every
    /// process had gone by the time it was sent).
    package var kill: ProcessKill?

    /// `true` when we had to stop the process because the awaiting task was cancelled.
    package var wasTerminated: Bool { cancellation != nil }

    /// Creates an outcome.
    package init(
        termination: Termination,
        output: [UInt8] = [],
        outputTruncated: Bool = false,
        cancellation: CancellationSignal? = nil,
        kill: ProcessKill? = nil
    ) {
        self.termination = termination
        self.output = output
        self.outputTruncated = outputTruncated
        self.cancellation = cancellation
        self.kill = kill
    }
}
