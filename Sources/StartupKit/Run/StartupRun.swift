import StartupSupport

/// A run in progress, from ``StartupOrchestrator/start()``: wait for part of it with a bounded,
/// explained wait, read outputs (starting on-demand commands), open gates, follow its events,
/// cancel it, and get its report.
///
/// ```swift
/// let run = StartupOrchestrator(plan).start()
/// try await run.wait(for: [FirstScreen.id], timeout: .milliseconds(400))
/// let pool = try await run.output(of: Database.self)
/// run.open("first-frame")
/// let report = await run.report()
/// ```
///
/// Any task, the main actor included, may wait on it, several at once; no wait blocks a thread.
/// Cancelling a waiting task ends that wait, not the run.
public final class StartupRun: Sendable {
    let scheduler: RunScheduler

    init(scheduler: RunScheduler) {
        self.scheduler = scheduler
    }

    /// Dropping the handle closes the run; a run with services is then shut down, since nobody
    /// else could stop them.
    deinit {
        scheduler.close()
        if scheduler.plan.storage.hasServices { scheduler.beginShutdown() }
    }

    /// The plan being run.
    public var plan: StartupPlan { scheduler.plan }

    /// Waits until every command of `ids` has succeeded, starting any that is on demand.
    ///
    /// - Parameters:
    ///   - ids: The commands to wait for.
    ///   - timeout: The longest to wait, by the run's clock; `nil` for no limit (a negative one
    ///     counts as zero).
    /// - Throws: ``StartupWaitError`` when the time is up (saying what holds each unfinished
    ///   command up), at once when one of them failed, timed out, was skipped or cancelled, or
    ///   when an id is not in the plan; `CancellationError` when the waiting task is cancelled.
    public func wait(for ids: [CommandID], timeout: Duration? = nil) async throws {
        let positions = try positions(of: ids)
        let timeout = timeout.map { max($0, .zero) }
        switch await scheduler.wait(for: positions, timeout: timeout) {
        case .succeeded:
            return
        case .didNotSucceed(let command, let status):
            throw StartupWaitError(awaited: ids, reason: .commandDidNotSucceed(command, status))
        case .timedOut(let holdUps):
            throw StartupWaitError(awaited: ids, reason: .timedOut(after: timeout ?? .zero, holdUps: holdUps))
        case .cancelled:
            throw CancellationError()
        }
    }

    /// Waits until the command `command` has succeeded, starting it if it is on demand.
    ///
    /// - Throws: As ``wait(for:timeout:)-([CommandID],_)``.
    public func wait<Command: StartupCommand>(for command: Command.Type, timeout: Duration? = nil) async throws {
        try await wait(for: [Command.id], timeout: timeout)
    }

    /// Waits until the main-actor command `command` has succeeded, starting it if it is on demand.
    ///
    /// - Throws: As ``wait(for:timeout:)-([CommandID],_)``.
    public func wait<Command: MainActorStartupCommand>(for command: Command.Type, timeout: Duration? = nil) async throws {
        try await wait(for: [Command.id], timeout: timeout)
    }

    /// Waits until the blocking command `command` has succeeded, starting it if it is on demand.
    ///
    /// - Throws: As ``wait(for:timeout:)-([CommandID],_)``.
    public func wait<Command: BlockingStartupCommand>(for command: Command.Type, timeout: Duration? = nil) async throws {
        try await wait(for: [Command.id], timeout: timeout)
    }

    /// The output of `command`, once it has succeeded; starts it first if it is on demand.
    ///
    /// - Throws: ``StartupWaitError`` if it did not succeed; `CancellationError` when the waiting
    ///   task is cancelled.
    public func output<Command: StartupCommand>(of command: Command.Type) async throws -> Command.Output {
        try await output(of: Command.id, as: Command.Output.self)
    }

    /// The output of the main-actor command `command`, once it has succeeded; starts it first
    /// if it is on demand.
    ///
    /// - Throws: As ``output(of:)-9nagl``.
    public func output<Command: MainActorStartupCommand>(of command: Command.Type) async throws -> Command.Output {
        try await output(of: Command.id, as: Command.Output.self)
    }

    /// The output of the blocking command `command`, once it has succeeded; starts it first if
    /// it is on demand.
    ///
    /// - Throws: As ``output(of:)-9nagl``.
    public func output<Command: BlockingStartupCommand>(of command: Command.Type) async throws -> Command.Output {
        try await output(of: Command.id, as: Command.Output.self)
    }

    /// The output of the command `id`, once it has succeeded; starts it first if it is on demand.
    ///
    /// - Throws: ``StartupWaitError`` if it did not succeed, is not in the plan, or its output is
    ///   not a `T`; `CancellationError` when the waiting task is cancelled.
    public func output<T: Sendable>(of id: CommandID, as type: T.Type = T.self) async throws -> T {
        try await wait(for: [id])
        let value = scheduler.outputs.value(at: scheduler.plan.position(of: id))
        if T.self == Void.self, value == nil, let void = () as? T { return void }
        guard let typed = value as? T else {
            let found = value.map { String(describing: Swift.type(of: $0)) } ?? "Void"
            throw StartupWaitError(awaited: [id], reason: .outputTypeMismatch(id, detail: "is \(found), not \(T.self)"))
        }
        return typed
    }

    /// Opens the gate `gate`: it succeeds as soon as its dependencies have, and what depends on
    /// it may start. Opening it again does nothing.
    ///
    /// - Precondition: The plan has a gate `gate` (a mistyped id names the closest one).
    public func open(_ gate: CommandID) {
        guard let position = scheduler.plan.storage.index[gate] else {
            let hint = suggestion(for: gate).map { "; did you mean \(MessageQuoting.quoted($0))?" } ?? ""
            preconditionFailure("open(\(MessageQuoting.quoted(gate))): the plan has no such gate" + hint)
        }
        precondition(
            scheduler.plan.storage.commands[position].isGate,
            "open(\(MessageQuoting.quoted(gate))): it is a command, not a gate (add it with addGate)")
        scheduler.open(position)
    }

    /// The start-up report, once every eager command (and every on-demand command requested so
    /// far) has ended and every gate has opened, or the run was cancelled. Outputs stay
    /// readable afterwards, and on-demand commands can still be requested; a later call
    /// reports them too. Cancelling the calling task does not end this wait: cancel the run.
    public func report() async -> StartupReport {
        await scheduler.report()
    }

    /// Cancels the start-up: the commands in flight are cancelled, nothing more starts, and
    /// commands requested later end cancelled. The report still comes. Services that are ready
    /// keep running until ``shutdown(modules:stopTimeout:)``.
    public func cancel() {
        scheduler.cancel()
    }

    /// Shuts the run down and reports how each stop went: a start-up still going is cancelled
    /// (its report then says so); then every ready service, and each of `modules` whose command
    /// succeeded, is stopped in one walk in reverse dependency order: each only after everything
    /// that depends on it has stopped, independent ones at once, each within its stop timeout
    /// (a service's ``CommandOptions/stopTimeout``, a module's ``StoppableModule/stopTimeout``,
    /// else `stopTimeout`); one that ignores cancellation is abandoned after it.
    ///
    /// ```swift
    /// let run = StartupOrchestrator(plan).start()
    /// try await run.wait(for: [API.id], timeout: .seconds(5))
    /// let stopped = await run.shutdown()
    /// ```
    ///
    /// A service stops when its task is cancelled; one that had ended by itself is reported
    /// failed with ``ServiceEndedError``. A module attached to a service's command stops just
    /// before the service. Shutdown happens once: later and concurrent calls return the first
    /// one's report. Offsets count from the start of the run.
    ///
    /// - Parameters:
    ///   - modules: Modules to stop in the same walk, by the command that set each up (for
    ///     example the `stop` lines of the CLI, or the `StartupLifecycle` library's modules).
    ///   - stopTimeout: The limit of a stop that sets none of its own; 10 seconds by default.
    /// - Precondition: Every key of `modules` is a command of the plan; `stopTimeout` is positive.
    @discardableResult
    public func shutdown(
        modules: [CommandID: any StoppableModule] = [:], stopTimeout: Duration = .seconds(10)
    ) async -> ShutdownReport {
        for id in modules.keys where scheduler.plan.storage.index[id] == nil {
            let hint = suggestion(for: id).map { "; did you mean \(MessageQuoting.quoted($0))?" } ?? ""
            preconditionFailure("shutdown(modules:): the plan has no command \(MessageQuoting.quoted(id))" + hint)
        }
        precondition(stopTimeout > .zero, "shutdown(modules:): the stop timeout must be positive")
        return await scheduler.shutdown(modules: modules, stopTimeout: stopTimeout)
    }

    /// The run's events from now on, in order; the sequence ends when the run is over (it has
    /// settled and its handle is gone).
    public var events: AsyncStream<StartupEvent> {
        scheduler.subscribers.subscribe()
    }

    private func positions(of ids: [CommandID]) throws(StartupWaitError) -> [Int] {
        try ids.map { id throws(StartupWaitError) in
            guard let position = scheduler.plan.storage.index[id] else {
                throw StartupWaitError(awaited: ids, reason: .unknownCommand(id, suggestion: suggestion(for: id)))
            }
            return position
        }
    }

    /// The plan's id closest to a mistyped one.
    func suggestion(for id: CommandID) -> CommandID? {
        var suggestions = IdentifierSuggestionIndex(scheduler.plan.ids.map(\.rawValue))
        return suggestions.closest(to: id.rawValue).map { CommandID($0) }
    }
}
