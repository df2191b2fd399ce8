import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `startup` writes: standard output and standard error, or buffers when a test runs the
/// CLI in-process. Writes of one call are never interleaved with another's.
package final class Console: Sendable {
    private enum Destination {
        case standardStreams
        case buffers
    }

    private let destination: Destination
    private let captured = Locked<(output: String, error: String)>(("", ""))
    /// What became of standard output. A struct, not a tuple: a closure in a tuple behind the generic
    /// lock was wrapped in two more reabstraction thunks at every access (every write), until calling
    /// it overflowed the stack after some thousands of lines.
    private struct OutputState {
        /// The `errno` of the first write to standard output that failed, if any.
        var failure: Int32?
        /// Whom to tell when that failure is a closed pipe (EPIPE).
        var onClose: (@Sendable () -> Void)?
    }

    /// Guards what became of standard output.
    private let outputState = Locked(OutputState())
    /// Whether output may use ANSI colours: standard output is a terminal and `NO_COLOR` is unset.
    package let usesColor: Bool
    /// The width of the terminal in columns, for scaling the timeline's bars.
    package let width: Int

    private init(destination: Destination, usesColor: Bool, width: Int) {
        self.destination = destination
        self.usesColor = usesColor
        self.width = width
    }

    /// The process's own standard output and error.
    package static func standard(environment: [String: String]) -> Console {
        let isTerminal = isatty(STDOUT_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Console(destination: .standardStreams, usesColor: isTerminal && !noColor, width: terminalWidth(environment))
    }

    /// Buffers, read back with ``capturedOutput`` and ``capturedError``.
    package static func capturing(width: Int = 100) -> Console {
        Console(destination: .buffers, usesColor: false, width: width)
    }

    /// Writes text to standard output.
    package func out(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes text to standard error.
    package func err(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// The `errno` of the first write to standard output that failed (`ENOSPC` for a full disk or
    /// `/dev/full`, `EPIPE` for a closed pipe), or `nil` while every write succeeded.
    package var outputWriteError: Int32? { outputState.withLock { $0.failure } }

    /// Whether a write to standard output failed because its reader went away (EPIPE); later
    /// writes to it are dropped.
    package var isOutputClosed: Bool { outputWriteError == EPIPE }

    /// Calls `action` once, when a write to standard output fails with EPIPE.
    package func whenOutputCloses(_ action: @escaping @Sendable () -> Void) {
        outputState.withLock { $0.onClose = action }
    }

    /// Standard output's reader went away while nothing was being written (``OutputCloseWatcher``): as
    /// if a write had failed with EPIPE.
    func readerLeft() {
        outputFailed(EPIPE)
    }

    /// The status to exit with after `code`, saying on standard error when a write to standard output
    /// failed, so output a machine reads is never lost silently: 74 when `code` would have said all was
    /// well or a command failed, `code` itself otherwise (an interrupt still exits 130, and the status
    /// of the command after `--` is passed on whatever it is). A closed pipe (`EPIPE`) is left to its
    /// own handling.
    package func exitCode(after code: ExitCode) -> ExitCode {
        guard let failure = outputWriteError, failure != EPIPE else { return code }
        error("cannot write standard output: \(String(cString: strerror(failure))); what was printed is incomplete")
        return !code.isPassedOn && (code == .success || code == .failure) ? .outputFailed : code
    }

    /// Everything written to standard output so far (capturing consoles only).
    package var capturedOutput: String { captured.withLock { $0.output } }
    /// Everything written to standard error so far (capturing consoles only).
    package var capturedError: String { captured.withLock { $0.error } }

    private func write(_ text: String, to descriptor: Int32) {
        switch destination {
        case .buffers:
            captured.withLock { buffers in
                if descriptor == STDOUT_FILENO { buffers.output += text } else { buffers.error += text }
            }
        case .standardStreams:
            if descriptor == STDOUT_FILENO, isOutputClosed { return }
            var text = text
            text.withUTF8 { buffer in
                guard let start = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = systemWrite(descriptor, start + offset, buffer.count - offset)
                    if written < 0 {
                        let failure = errno
                        if failure == EINTR { continue }
                        if descriptor == STDOUT_FILENO { outputFailed(failure) }
                        return
                    }
                    offset += written
                }
            }
        }
    }

    /// Remembers the first failure of standard output and, when it is a closed pipe, tells whoever
    /// asked, once.
    private func outputFailed(_ failure: Int32) {
        let action = outputState.withLock { state -> (@Sendable () -> Void)? in
            guard state.failure == nil else { return nil }
            state.failure = failure
            defer { state.onClose = nil }
            return failure == EPIPE ? state.onClose : nil
        }
        action?()
    }

    private static func terminalWidth(_ environment: [String: String]) -> Int {
        // Wider than any screen is a mistake (`COLUMNS=99999999999`), not a reason to draw huge bars.
        if let columns = environment["COLUMNS"].flatMap(Int.init), (21...1_000).contains(columns) { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, (21...1_000).contains(size.ws_col) { return Int(size.ws_col) }
        return 100
    }
}

/// `write(2)`, named apart from the console's own `write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
    #else
        Darwin.write(descriptor, buffer, count)
    #endif
}
