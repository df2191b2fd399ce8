import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The answers a request's task hands to its connection's thread, which writes them: the task never blocks on a
/// slow client, and the thread sleeps in `poll` until there is something to write (the doorbell, a pipe).
final class ControlOutbox: Sendable {
    /// What is waiting to be written.
    struct Pending: Sendable {
        /// Answer lines, in order.
        var lines: [String] = []
        /// Their size in bytes.
        var bytes = 0
        /// Whether the last answer was handed over.
        var finished = false
        /// Whether more than ``limit`` bytes waited at once: the client does not read, and is dropped.
        var overflowed = false
        /// Whether the doorbell was rung since the thread last took the pending lines.
        var rung = false
    }

    /// The most bytes that may wait for a client that does not read.
    let limit: Int
    /// Guards what waits to be written.
    private let pending = Locked(Pending())
    /// The doorbell: the task writes a byte, the thread polls the read end. Closed when the last of the task
    /// and the thread lets go of the outbox, so its descriptors are never reused while either may touch them.
    private let doorbell: (read: Int32, write: Int32)

    /// An outbox holding at most `limit` bytes; `nil` when no pipe can be made.
    init?(limit: Int) {
        guard let ends = makeCloseOnExecPipe(nonBlockingRead: true, nonBlockingWrite: true) else { return nil }
        self.limit = limit
        doorbell = ends
    }

    deinit {
        close(doorbell.read)
        close(doorbell.write)
    }

    /// The descriptor the thread polls for reading.
    var bell: Int32 { doorbell.read }

    /// Hands `answer` over; the final answer ends the outbox.
    func post(_ answer: ControlAnswer) {
        let line = answer.line
        let ring = pending.withLock { state -> Bool in
            guard !state.finished, !state.overflowed else { return false }
            state.lines.append(line)
            state.bytes += line.utf8.count
            if state.bytes > limit {
                state.overflowed = true
                state.lines = []
            }
            if answer.isFinal { state.finished = true }
            defer { state.rung = true }
            return !state.rung
        }
        if ring { ringBell() }
    }

    /// Ends the outbox without a final answer (the task was cancelled after its client left).
    func finish() {
        let ring = pending.withLock { state -> Bool in
            state.finished = true
            defer { state.rung = true }
            return !state.rung
        }
        if ring { ringBell() }
    }

    /// Everything waiting, taken; the bell is silenced first, so a post after this rings again.
    func take() -> Pending {
        var byte: UInt8 = 0
        while read(doorbell.read, &byte, 1) > 0 {}
        return pending.withLock { state in
            let taken = state
            state.lines = []
            state.bytes = 0
            state.rung = false
            return taken
        }
    }

    private func ringBell() {
        var byte: UInt8 = 1
        _ = write(doorbell.write, &byte, 1)
    }
}
