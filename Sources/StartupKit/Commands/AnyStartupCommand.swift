/// A command of any kind, reduced to what the plan and the orchestrator need.
///
/// The fields a worker reads on every attempt (the body, whether it has an output, the timeout)
/// come first, so that they share a cache line: a run touches its commands in no useful order.
struct AnyStartupCommand: Sendable {
    /// Runs the command and returns its output.
    let execute: @Sendable (StartupContext) async throws -> any Sendable
    /// False when the output is `Void`, so nothing needs storing.
    let producesOutput: Bool
    /// Its priority, optionality, timeout, retries and estimate.
    let options: CommandOptions
    /// The command's identifier.
    let id: CommandID
    /// The identifiers of the commands it depends on, as declared.
    let dependencies: [CommandID]
    /// A gate has no work: it succeeds once the run opens it and its dependencies have succeeded.
    let isGate: Bool
    /// A service's body (``StartupService``), which signals ready through its attempt and then
    /// serves; `nil` for a command or a gate. A service's `execute` is never called.
    let serve: (@Sendable (StartupContext, ServiceAttempt) async throws -> Void)?

    init<Output: Sendable>(
        id: CommandID,
        dependencies: [CommandID],
        options: CommandOptions,
        isGate: Bool = false,
        execute: @escaping @Sendable (StartupContext) async throws -> Output
    ) {
        self.id = id
        self.dependencies = dependencies
        self.options = options
        self.isGate = isGate
        self.serve = nil
        self.producesOutput = Output.self != Void.self
        self.execute = { context in try await execute(context) }
    }

    /// A service: `serve` runs it, handing it a ``ReadySignal`` for its `Output`.
    init<Output: Sendable>(
        id: CommandID,
        dependencies: [CommandID],
        options: CommandOptions,
        outputType: Output.Type,
        serve: @escaping @Sendable (StartupContext, ReadySignal<Output>) async throws -> Void
    ) {
        self.id = id
        self.dependencies = dependencies
        self.options = options
        self.isGate = false
        self.serve = { context, attempt in try await serve(context, ReadySignal(attempt)) }
        self.producesOutput = Output.self != Void.self
        self.execute = { _ in preconditionFailure("a service is run by its serve closure") }
    }
}
