import StartupKit
import StartupManifest
import StartupSupport

/// The one live model of a run of `startup`: each command's state, its process, for how long,
/// its time to ready, its restarts and its last check, kept as the run's events, its processes
/// and the moves by hand change them. `startup ps` lists it, `startup events` streams its
/// changes.
final class LiveRun: Sendable {
    /// One command as the run sees it now.
    private struct Entry: Sendable {
        let id: CommandID
        let kind: ControlRow.Kind
        var state = CommandState.waiting
        var pid: Int32?
        /// When the state began, from the model's start.
        var since = Duration.zero
        /// When the incarnation or attempt that runs started.
        var startedAt: Duration?
        var readyAfter: Duration?
        var restarts = 0
        var lastCheck: String?
        /// A restart is under way: its stop reads `restarting`, not `stopping`.
        var restartPending = false

        /// Moves to `state` at `now`; whether it changed.
        mutating func enter(_ state: CommandState, at now: Duration) -> Bool {
            guard state != self.state else { return false }
            self.state = state
            since = now
            return true
        }
    }

    private struct Book: Sendable {
        var entries: [Entry]
        let index: [CommandID: Int]
    }

    /// Guards every command's entry.
    private let book: Locked<Book>
    private let origin = ContinuousClock.now
    private let changes = Broadcast<ControlEvent>()

    /// A model of `manifest`'s commands, every one waiting.
    init(manifest: Manifest) {
        let entries = manifest.commands.map { Entry(id: $0.id, kind: $0.isService ? .service : .command) }
        book = Locked(Book(entries: entries, index: Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.id, $0) })))
    }

    /// The time since the model began.
    var elapsed: Duration { origin.duration(to: .now) }

    /// Every command's row, in the manifest's order.
    func rows() -> [ControlRow] {
        let now = elapsed
        return book.withLock { book in
            book.entries.map { entry in
                ControlRow(
                    id: entry.id, kind: entry.kind, state: entry.state, pid: entry.pid, sinceMs: Self.milliseconds(now - entry.since),
                    readyMs: entry.readyAfter.map(Self.milliseconds), restarts: entry.restarts, lastCheck: entry.lastCheck)
            }
        }
    }

    /// The state of `id` now.
    func state(of id: CommandID) -> CommandState? {
        book.withLock { book in book.index[id].map { book.entries[$0].state } }
    }

    /// Every change from now on, until ``finish()``.
    func events() -> AsyncStream<ControlEvent> {
        changes.subscribe(buffer: 4096)
    }

    /// The run is over: the event streams end.
    func finish() {
        changes.finish()
    }

    // MARK: - Changes

    /// The process of `id` (a command's attempt, a service's incarnation) was started.
    func spawned(_ id: CommandID, pid: Int32) {
        change(id) { entry, now in
            // The engine announces a spawn on its own thread: a probe that passes at once (`"after": "0s"`) can say
            // ready first. The incarnation is ready then, and has this pid.
            let readyFirst = entry.state == .ready && entry.pid == nil
            entry.pid = pid
            guard entry.kind == .service, !readyFirst else { return false }
            entry.restartPending = false
            entry.startedAt = now
            entry.readyAfter = nil
            return entry.enter(.starting, at: now)
        }
    }

    /// The service `id` is ready (its first readiness, or again after a restart).
    func ready(_ id: CommandID) {
        change(id) { entry, now in
            entry.restartPending = false  // the restart is over: a stop from now on is a stop
            entry.readyAfter = entry.startedAt.map { now - $0 }
            return entry.enter(.ready, at: now)
        }
    }

    /// The last probe or liveness check of `id` saw this.
    func checked(_ id: CommandID, _ result: String) {
        book.withLock { book in
            guard let position = book.index[id] else { return }
            book.entries[position].lastCheck = result
        }
    }

    /// A restart of `id` (by hand, or a reload's) begins.
    func restarting(_ id: CommandID) {
        change(id) { entry, now in
            entry.startedAt = now
            entry.restarts += 1
            entry.restartPending = entry.kind == .service
            return entry.enter(.restarting, at: now)
        }
    }

    /// `id` is being stopped (by hand, or by the shutdown).
    func stopping(_ id: CommandID) {
        change(id) { entry, now in
            entry.restartPending ? false : entry.enter(.stopping, at: now)
        }
    }

    /// `id`'s process has ended after a stop.
    func stopped(_ id: CommandID) {
        change(id) { entry, now in
            entry.pid = nil
            if !entry.restartPending { entry.lastCheck = nil }  // what a probe of a stopped service saw no longer holds
            return entry.restartPending ? false : entry.enter(.stopped, at: now)
        }
    }

    /// The service `id` was not ready again after a start by hand: it stays stopped.
    func notReady(_ id: CommandID, why: String) {
        change(id, extra: [ControlEventField("reason", .string(why))]) { entry, now in
            entry.pid = nil
            entry.lastCheck = why
            entry.restartPending = false
            return entry.enter(.failed, at: now)
        }
    }

    /// A one-shot command `id` runs again (a restart, a reload).
    func runsAgain(_ id: CommandID) {
        change(id) { entry, now in
            entry.startedAt = now
            return entry.enter(.running, at: now)
        }
    }

    /// A one-shot command `id` that ran again has ended.
    func ranAgain(_ id: CommandID, succeeded: Bool, why: String?) {
        change(id, extra: why.map { [ControlEventField("reason", .string($0))] } ?? []) { entry, now in
            entry.pid = nil
            return entry.enter(succeeded ? .succeeded : .failed, at: now)
        }
    }

    /// Says a change that concerns the run, not one command's state (a reload): `fields` go with it.
    func announce(_ state: String, id: CommandID?, fields: [ControlEventField]) {
        changes.send(ControlEvent(atMs: Self.milliseconds(elapsed), id: id, state: state, fields: fields))
    }

    /// Applies `change` to `id`'s entry; when it says the state changed, the change is sent.
    private func change(
        _ id: CommandID, extra: [ControlEventField] = [], _ change: (inout Entry, Duration) -> Bool
    ) {
        let now = elapsed
        let event: ControlEvent? = book.withLock { book in
            guard let position = book.index[id] else { return nil }
            guard change(&book.entries[position], now) else { return nil }
            let entry = book.entries[position]
            var fields: [ControlEventField] = []
            if let pid = entry.pid { fields.append(ControlEventField("pid", .integer(Int(pid)))) }
            if entry.state == .ready, let ready = entry.readyAfter {
                fields.append(ControlEventField("readyMs", .integer(Self.milliseconds(ready))))
            }
            if entry.restarts > 0 { fields.append(ControlEventField("restarts", .integer(entry.restarts))) }
            return ControlEvent(atMs: Self.milliseconds(now), id: id, state: entry.state.rawValue, fields: fields + extra)
        }
        if let event { changes.send(event) }
    }

    /// `duration` in whole milliseconds, as the control protocol says it.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds.multipliedReportingOverflow(by: 1000).partialValue + attoseconds / 1_000_000_000_000_000)
    }
}

extension LiveRun: StartupObserver {
    func observe(_ event: StartupEvent) {
        switch event {
        case .runStarted, .runFinished:
            return
        case .commandStarted(let id, _, _):
            change(id) { entry, now in
                entry.startedAt = now
                return entry.enter(entry.kind == .service ? .starting : .running, at: now)
            }
        case .commandRetrying(let id, _, let outcome, _, _):
            change(id, extra: [ControlEventField("reason", .string(outcome.detail ?? outcome.name))]) { entry, now in
                entry.pid = nil
                return entry.enter(.waiting, at: now)
            }
        case .commandFinished(let id, let status, _, _, _):
            change(id, extra: status.detail.map { [ControlEventField("reason", .string($0))] } ?? []) { entry, now in
                if entry.kind == .command || !status.isSuccess { entry.pid = nil }
                switch status {
                case .succeeded where entry.kind == .service:
                    entry.readyAfter = entry.startedAt.map { now - $0 }
                    return entry.enter(.ready, at: now)
                case .succeeded: return entry.enter(.succeeded, at: now)
                case .failed, .timedOut: return entry.enter(.failed, at: now)
                case .skipped, .notRequested: return entry.enter(.skipped, at: now)
                case .cancelled: return entry.enter(.stopped, at: now)
                }
            }
        case .serviceEnded(let error, _):
            change(error.service, extra: [ControlEventField("reason", .string(ProcessEndings.end(of: error)))]) { entry, now in
                entry.pid = nil
                entry.lastCheck = ProcessEndings.end(of: error)
                guard error.restart != nil else { return entry.enter(.exited, at: now) }
                entry.restarts += 1
                return entry.enter(.restarting, at: now)
            }
        }
    }
}
