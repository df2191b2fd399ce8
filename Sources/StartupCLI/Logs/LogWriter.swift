import Dispatch
import StartupKit
import StartupSupport

/// Writes a run's logs on a thread of its own, in the order it is handed their parts, so a slow disk delays only the
/// logs: handing a part over takes a lock and, when the thread sleeps, a wake-up, never a write. What waits to be
/// written is held in memory, however much it is.
final class LogWriter: Sendable {
    /// One thing to do, in order.
    enum Entry: Sendable {
        /// A start's header line, on a line of its own.
        case header(CommandID, LogHeader)
        /// Output, as it came.
        case output(CommandID, [UInt8])
        /// The output of a command cannot be logged (`reason`): its log is given up, with a warning.
        case unlogged(CommandID, reason: String)
    }

    /// What is handed to the thread.
    private struct Inbox {
        /// What the thread has not taken yet, oldest first.
        var entries: [Entry] = []
        /// Who waits until everything before them is written.
        var finishers: [CheckedContinuation<Void, Never>] = []
        /// Whether the thread runs (it is started with the first entry, and ends at `finish()`).
        var isRunning = false
        /// Whether the thread waits for `wakeUp`.
        var isAsleep = false
    }

    /// Guards what is handed to the thread and whether it runs and sleeps.
    private let inbox = Locked(Inbox())
    /// Wakes the thread when it sleeps.
    private let wakeUp = DispatchSemaphore(value: 0)
    /// The folder, as the user wrote it.
    private let folder: String
    /// Told each warning, on the thread.
    private let onWarning: @Sendable (String) -> Void

    /// A writer of the logs in `folder` (as the user wrote it), which tells `onWarning` of each log it gives up.
    init(folder: String, onWarning: @escaping @Sendable (String) -> Void) {
        self.folder = folder
        self.onWarning = onWarning
    }

    /// Hands `entry` over, to be written after everything handed over before it.
    func submit(_ entry: Entry) {
        let (starts, wakes) = inbox.withLock { inbox in
            inbox.entries.append(entry)
            return hand(&inbox)
        }
        if starts { DedicatedThread.run { [self] in serve() } }
        if wakes { wakeUp.signal() }
    }

    /// Returns once everything handed over before has been written (or given up), the logs closed.
    func finish() async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let (starts, wakes) = inbox.withLock { inbox in
                inbox.finishers.append(finished)
                return hand(&inbox)
            }
            if starts { DedicatedThread.run { [self] in serve() } }
            if wakes { wakeUp.signal() }
        }
    }

    /// After something was added to `inbox`: whether to start the thread, and whether to wake it.
    private func hand(_ inbox: inout Inbox) -> (starts: Bool, wakes: Bool) {
        if !inbox.isRunning {
            inbox.isRunning = true
            return (true, false)
        }
        defer { inbox.isAsleep = false }
        return (false, inbox.isAsleep)
    }

    /// The thread: writes what it is handed, and sleeps when there is nothing; ends once it has written everything
    /// that came before a `finish()` and nothing more came.
    private func serve() {
        var files = LogFiles(folder: folder)
        while true {
            let taken = inbox.withLock { inbox -> (entries: [Entry], finishers: [CheckedContinuation<Void, Never>])? in
                guard !inbox.entries.isEmpty || !inbox.finishers.isEmpty else {
                    inbox.isAsleep = true
                    return nil
                }
                defer { (inbox.entries, inbox.finishers) = ([], []) }
                return (inbox.entries, inbox.finishers)
            }
            guard let taken else {
                wakeUp.wait()
                continue
            }
            for entry in taken.entries {
                let warning: String? =
                    switch entry {
                    case .header(let id, let header): files.write(header, of: id)
                    case .output(let id, let bytes): files.write(bytes, of: id)
                    case .unlogged(let id, let reason): files.fail(id, reason: reason)
                    }
                if let warning { onWarning(warning) }
            }
            guard !taken.finishers.isEmpty else { continue }
            let ends = inbox.withLock { inbox in
                guard inbox.entries.isEmpty && inbox.finishers.isEmpty else { return false }
                inbox.isRunning = false
                return true
            }
            if ends { files.closeAll() }
            for finisher in taken.finishers { finisher.resume() }
            if ends { return }
        }
    }
}
