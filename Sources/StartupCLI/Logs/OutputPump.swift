import StartupKit
import StartupReporting
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the pipes that logged commands write their output to (`startup run --log-dir`), on one thread of its own
/// for the whole run, waiting in `poll`: each chunk, as it comes, goes to the command's log (``LogWriter``, which
/// writes it on another thread, so a slow disk never holds a command up), to the end of the command's kept output
/// (``OutputTail``), and, with `--output stream`, to where streamed output goes.
///
/// A command's pipe is read until its end of file, so what a daemon it leaves writes later is logged too; its kept
/// output is handed over when ``drain(_:)`` asks, once the command has been reaped and everything it wrote is in the
/// pipe.
final class OutputPump: Sendable {
    /// A pipe being read.
    private struct Reader {
        /// The read end (non-blocking, close-on-exec).
        let readEnd: Int32
        /// Whose output it carries.
        let id: CommandID
        /// Where each chunk is also written (standard output or error), if anywhere.
        let forward: Int32?
        /// The end of the output, while it is kept; `nil` once drained, or when it is not kept.
        var tail: OutputTail?
        /// Whether the read end is open (end of file not reached).
        var isOpen = true
        /// Whether its kept output was handed over: it is forgotten at its end of file.
        var isDrained = false
    }

    /// A pipe to read from now on.
    private struct Added {
        let token: Int
        let reader: Reader
    }

    /// A request for a pipe's kept output.
    private struct Drain {
        let token: Int
        let waiter: CheckedContinuation<OutputTail, Never>
    }

    /// Whether the thread runs.
    private enum State {
        case idle
        case running
        case closed
    }

    /// What is handed to the thread.
    private struct Inbox {
        var state = State.idle
        var lastToken = 0
        var added: [Added] = []
        var drains: [Drain] = []
        var closers: [CheckedContinuation<Void, Never>] = []
    }

    /// Guards what is handed to the thread and its state.
    private let inbox = Locked(Inbox())
    /// The pipe that wakes the thread from `poll` (both ends non-blocking); `nil` when it could not be made, and
    /// then no output is read here. Closed when the pump is freed, so a late wake-up never writes to a number
    /// reused by another file.
    private let wake: (read: Int32, write: Int32)?
    /// Where chunks go to be logged.
    private let writer: LogWriter

    /// A pump whose chunks go to `writer`.
    init(writer: LogWriter) {
        self.writer = writer
        wake = makeCloseOnExecPipe(nonBlockingRead: true, nonBlockingWrite: true)
    }

    deinit {
        if let wake {
            _ = closeDescriptor(wake.read)
            _ = closeDescriptor(wake.write)
        }
    }

    /// Reads `readEnd` from now on, for `id`'s log, writing each chunk to `forward` too when given, and keeping the
    /// end of the output when `keepsTail`. The pump closes `readEnd` at its end of file, or at `close()`.
    ///
    /// - Returns: The token to drain it with; `nil` when the pump cannot read (it could not make its wake-up pipe,
    ///   or it is closed), and `readEnd` is left to the caller.
    func add(_ readEnd: Int32, for id: CommandID, forwardingTo forward: Int32?, keepsTail: Bool) -> Int? {
        guard let wake else { return nil }
        let (token, starts) = inbox.withLock { inbox -> (Int?, Bool) in
            guard inbox.state != .closed else { return (nil, false) }
            inbox.lastToken += 1
            let reader = Reader(readEnd: readEnd, id: id, forward: forward, tail: keepsTail ? OutputTail() : nil)
            inbox.added.append(Added(token: inbox.lastToken, reader: reader))
            defer { inbox.state = .running }
            return (inbox.lastToken, inbox.state == .idle)
        }
        guard let token else { return nil }
        if starts { DedicatedThread.run { [self] in serve(wake.read) } }
        ring(wake.write)
        return token
    }

    /// Reads what is in the pipe of `token` now, and returns the output kept of it (empty when none is kept).
    /// Called once per token, after its writer was reaped: everything it wrote is in the pipe by then.
    func drain(_ token: Int) async -> OutputTail {
        await withCheckedContinuation { (waiter: CheckedContinuation<OutputTail, Never>) in
            let posted = inbox.withLock { inbox in
                guard inbox.state == .running else { return false }
                inbox.drains.append(Drain(token: token, waiter: waiter))
                return true
            }
            if posted, let wake { ring(wake.write) } else { waiter.resume(returning: OutputTail()) }
        }
    }

    /// Reads what is in every pipe now, closes them, and ends the thread; returns once it has.
    func close() async {
        await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
            let posted = inbox.withLock { inbox in
                defer { if inbox.state == .idle { inbox.state = .closed } }
                guard inbox.state == .running else { return false }
                inbox.closers.append(closed)
                return true
            }
            if posted, let wake { ring(wake.write) } else { closed.resume() }
        }
    }

    /// Wakes the thread (a wake-up already pending does as well, when the pipe is full).
    private func ring(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    /// The thread: waits for output and for what is handed over, and acts on both, until `close()`.
    private func serve(_ wakeRead: Int32) {
        var readers: [Int: Reader] = [:]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var failedForwards: Set<Int32> = []
        while true {
            let polled = readers.filter(\.value.isOpen).map(\.key)
            var entries = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            entries += polled.map { pollfd(fd: readers[$0]!.readEnd, events: Int16(POLLIN), revents: 0) }
            if poll(&entries, nfds_t(entries.count), -1) < 0 { continue }  // EINTR, or out of memory for a moment
            for (index, token) in polled.enumerated() where entries[index + 1].revents != 0 {
                read(&readers[token]!, into: &buffer, once: true, failedForwards: &failedForwards)
                if let reader = readers[token], !reader.isOpen, reader.isDrained { readers[token] = nil }
            }
            guard entries[0].revents != 0 else { continue }
            while buffer.withUnsafeMutableBytes({ readBytes(wakeRead, $0.baseAddress!, $0.count) }) > 0 {}
            let (added, drains, closers) = inbox.withLock { inbox in
                defer { (inbox.added, inbox.drains) = ([], []) }
                if !inbox.closers.isEmpty { inbox.state = .closed }
                return (inbox.added, inbox.drains, inbox.closers)
            }
            for new in added { readers[new.token] = new.reader }
            for drain in drains {
                guard var reader = readers[drain.token] else {
                    drain.waiter.resume(returning: OutputTail())
                    continue
                }
                if reader.isOpen { read(&reader, into: &buffer, once: false, failedForwards: &failedForwards) }
                let tail = reader.tail ?? OutputTail()
                reader.tail = nil
                reader.isDrained = true
                readers[drain.token] = reader.isOpen ? reader : nil
                drain.waiter.resume(returning: tail)
            }
            guard !closers.isEmpty else { continue }
            for token in readers.keys where readers[token]!.isOpen {
                read(&readers[token]!, into: &buffer, once: false, failedForwards: &failedForwards)
                if readers[token]!.isOpen { _ = closeDescriptor(readers[token]!.readEnd) }
            }
            // Drains posted before the closing are answered above; later ones are answered by `drain` itself.
            for closer in closers { closer.resume() }
            return
        }
    }

    /// Reads `reader`'s pipe (one chunk when `once`, else until it is empty), handing each chunk on; closes it at
    /// its end of file or an error.
    private func read(_ reader: inout Reader, into buffer: inout [UInt8], once: Bool, failedForwards: inout Set<Int32>) {
        while true {
            let count = buffer.withUnsafeMutableBytes { readBytes(reader.readEnd, $0.baseAddress!, $0.count) }
            if count > 0 {
                let chunk = Array(buffer[..<count])
                reader.tail?.append(chunk)
                writer.submit(.output(reader.id, chunk))
                if let forward = reader.forward, !failedForwards.contains(forward),
                    chunk.withUnsafeBufferPointer({ FileOperations.writeAll($0, to: forward) }) != 0
                {
                    failedForwards.insert(forward)
                }
                if once { return }
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && errno == EAGAIN {
                return
            } else {
                _ = closeDescriptor(reader.readEnd)
                reader.isOpen = false
                return
            }
        }
    }
}

/// `read(2)`, named apart from `OutputPump.read(_:into:once:failedForwards:)`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}
