import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pipe a service (and its stop line) writes its standard output and error to, read off the scheduler's
/// path: a thread of its own waits in `poll`, splits what arrives into lines for `onLine` (in order), reports a
/// `log` probe's text through `onMatch`, and hands every chunk, as it came, to `onOutput`.
final class ServiceOutputReader: Sendable {
    /// The end children write to (close-on-exec here; their standard output and error are duplicates of it).
    let writeEnd: Int32
    private let readEnd: Int32
    /// A second pipe that tells the thread to read what is left and stop.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Guards whether the thread has stopped, and who waits for it.
    private let stopped = Locked<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    /// Guards whether `writeEnd` has been closed.
    private let writeEndClosed = Locked(false)
    private let logText: String?
    private let onLine: @Sendable (String) -> Void
    private let onMatch: @Sendable () -> Void
    private let onOutput: @Sendable (ArraySlice<UInt8>) -> Void

    /// Creates the pipes; reading starts with `start()`.
    ///
    /// - Parameter logText: The text of a `log` probe, reported through `onMatch` the first time it appears.
    /// - Throws: `ServiceRunnerError` when a pipe cannot be created.
    init(
        logText: String?, onLine: @escaping @Sendable (String) -> Void, onMatch: @escaping @Sendable () -> Void,
        onOutput: @escaping @Sendable (ArraySlice<UInt8>) -> Void
    ) throws(ServiceRunnerError) {
        let output = try Self.makePipe()
        let wake: (read: Int32, write: Int32)
        do {
            wake = try Self.makePipe()
        } catch {
            _ = closeDescriptor(output.read)
            _ = closeDescriptor(output.write)
            throw error
        }
        (readEnd, writeEnd, wakeRead, wakeWrite) = (output.read, output.write, wake.read, wake.write)
        self.logText = logText
        self.onLine = onLine
        self.onMatch = onMatch
        self.onOutput = onOutput
    }

    /// Starts the reading thread.
    func start() {
        DedicatedThread.run { [self] in
            readUntilEnd()
            // The wake pipe stays open until `finish()` has written to it and seen the thread stop:
            // closed here, its number could be reused before that write, which would then wake
            // another reader (and end its reading early).
            _ = closeDescriptor(readEnd)
            let waiter = stopped.withLock { stopped in
                stopped.done = true
                defer { stopped.waiter = nil }
                return stopped.waiter
            }
            waiter?.resume()
        }
    }

    /// Once every writer the caller started has ended: closes the write end, reads what is left in the pipe,
    /// delivers a last line without a line ending, and stops; then closes the wake pipe. Called once, after
    /// `start()`. What a descendant that outlived the service writes
    /// later is not read.
    func finish() async {
        closeWriteEnd()
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = stopped.withLock { stopped in
                if !stopped.done { stopped.waiter = waiter }
                return stopped.done
            }
            if done { waiter.resume() }
        }
        _ = closeDescriptor(wakeRead)
        _ = closeDescriptor(wakeWrite)
    }

    /// Closes the write end if it is still open.
    func closeWriteEnd() {
        let open = writeEndClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if open { _ = closeDescriptor(writeEnd) }
    }

    /// Reads until end of file, an error, or a wake-up after which the pipe is drained.
    private func readUntilEnd() {
        var splitter = ServiceOutputLines(needle: logText)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var draining = false
        while true {
            if !draining {
                var entries = [
                    pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                ]
                let found = poll(&entries, 2, -1)
                if found < 0 && errno == EINTR { continue }
                if found < 0 { break }
                draining = entries[1].revents != 0
                if entries[0].revents == 0 && !draining { continue }
            }
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress!, $0.count) }
            if count > 0 {
                for event in splitter.append(buffer[..<count]) {
                    switch event {
                    case .line(let line): onLine(line)
                    case .matched: onMatch()
                    }
                }
                onOutput(buffer[..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && errno == EAGAIN && !draining {
                continue
            } else {
                break
            }
        }
        if let last = splitter.finish() { onLine(last) }
    }

    /// A close-on-exec pipe whose read end does not block.
    private static func makePipe() throws(ServiceRunnerError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ServiceRunnerError(.cannotCreatePipe(errno: errno)) }
        // Children the engine starts meanwhile close every descriptor above 2 (`closefrom`), so the moment before
        // close-on-exec is set leaks nothing.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }
}
