#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StartupKit

/// Where `startup` writes: standard output and standard error, or buffers when a test runs the
/// CLI in-process. Writes of one call are never interleaved with another's.
package final class Console: Sendable {
    private enum Destination {
        case standardStreams
        case buffers
    }

    private let destination: Destination
    private let captured = Locked<(output: String, error: String)>(("", ""))
    /// Whether standard output turned out closed (a write failed with EPIPE), and who to tell.
    private let closedOutput = Locked<(closed: Bool, action: (@Sendable () -> Void)?)>((false, nil))
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

    /// Whether a write to standard output failed because its reader went away (EPIPE); later
    /// writes to it are dropped.
    package var isOutputClosed: Bool { closedOutput.withLock { $0.closed } }

    /// Calls `action` once, when a write to standard output fails with EPIPE.
    package func whenOutputCloses(_ action: @escaping @Sendable () -> Void) {
        closedOutput.withLock { $0.action = action }
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
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        if errno == EPIPE, descriptor == STDOUT_FILENO { outputClosed() }
                        return
                    }
                    offset += written
                }
            }
        }
    }

    /// Remembers that standard output is closed and tells whoever asked, once.
    private func outputClosed() {
        let action = closedOutput.withLock { state -> (@Sendable () -> Void)? in
            defer { state = (true, nil) }
            return state.closed ? nil : state.action
        }
        action?()
    }

    private static func terminalWidth(_ environment: [String: String]) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 20 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 { return Int(size.ws_col) }
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
