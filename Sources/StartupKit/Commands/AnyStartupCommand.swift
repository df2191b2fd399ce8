/// A command of any kind, reduced to what the plan and the orchestrator need.
///
/// The fields a worker reads on every attempt (the body, whether it has an output, the timeout)
/// come first, so that they share a cache line: a run touches its commands in no useful order.
struct AnyStartupCommand: Sendable {
    /// Runs the command and returns its output, calling the run's tracer around the work on the
    /// thread that does it.
    let execute: @Sendable (StartupContext) async throws -> any Sendable
    /// False when the output is `Void`, so nothing needs storing.
    let producesOutput: Bool
    /// Its priority, optionality, timeout, retries and estimate.
    private(set) var options: CommandOptions
    /// The command's identifier.
    let id: CommandID
    /// The identifiers of the commands it depends on, as declared.
    let dependencies: [CommandID]
    /// A gate has no work: it succeeds once the run opens it and its dependencies have succeeded.
    let isGate: Bool
    /// Whether its work blocks its thread and so runs on the run's blocking pool.
    let isBlocking: Bool
    /// A blocking command's work, traced, for a pool thread to call; `nil` for any other. Its
    /// `execute` runs the same on the pool from a task.
    let runBlocking: (@Sendable (StartupContext) throws -> any Sendable)?
    /// A service's body (``StartupService``), which signals ready through its attempt and then
    /// serves; `nil` for a command or a gate. A service's `execute` is never called.
    let serve: (@Sendable (StartupContext, ServiceAttempt) async throws -> Void)?
    /// The commands it runs after, if they run (order-only edges), as declared.
    var after: [CommandID] = []
    /// The module that added it (``StartupModule/name``); `nil` for the app's own commands.
    var module: String?

    private init(
        id: CommandID, dependencies: [CommandID], options: CommandOptions, producesOutput: Bool, isGate: Bool = false,
        runBlocking: (@Sendable (StartupContext) throws -> any Sendable)? = nil,
        serve: (@Sendable (StartupContext, ServiceAttempt) async throws -> Void)? = nil,
        execute: @escaping @Sendable (StartupContext) async throws -> any Sendable
    ) {
        self.id = id
        self.dependencies = dependencies
        self.options = options
        self.producesOutput = producesOutput
        self.isGate = isGate
        isBlocking = runBlocking != nil
        self.runBlocking = runBlocking
        self.serve = serve
        self.execute = execute
    }

    /// The same command with other options.
    func with(options: CommandOptions) -> AnyStartupCommand {
        var command = self
        command.options = options
        return command
    }

    /// A command whose work is async: traced where the worker runs it.
    init<Output: Sendable>(
        id: CommandID,
        dependencies: [CommandID],
        options: CommandOptions,
        isGate: Bool = false,
        execute: @escaping @Sendable (StartupContext) async throws -> Output
    ) {
        self.init(
            id: id, dependencies: dependencies, options: options, producesOutput: Output.self != Void.self, isGate: isGate
        ) { context in
            guard let tracer = context.run.tracer else { return try await execute(context) }
            return try await context.traced(by: tracer) { try await execute(context) }
        }
    }

    /// A command whose work runs on the main actor: traced there.
    init<Output: Sendable>(
        id: CommandID,
        dependencies: [CommandID],
        options: CommandOptions,
        onMainActor execute: @escaping @MainActor @Sendable (StartupContext) async throws -> Output
    ) {
        self.init(id: id, dependencies: dependencies, options: options, producesOutput: Output.self != Void.self) { context in
            try await Self.runOnMainActor(context, execute)
        }
    }

    /// A command whose work blocks its thread: it runs on the run's blocking pool, at the
    /// quality of service of its effective priority, traced on that thread.
    init<Output: Sendable>(
        id: CommandID,
        dependencies: [CommandID],
        options: CommandOptions,
        blocking execute: @escaping @Sendable (StartupContext) throws -> Output
    ) {
        let runBlocking: @Sendable (StartupContext) throws -> any Sendable = { context in
            guard let tracer = context.run.tracer else { return try execute(context) }
            return try context.traced(by: tracer) { try execute(context) }
        }
        self.init(
            id: id, dependencies: dependencies, options: options, producesOutput: Output.self != Void.self, runBlocking: runBlocking
        ) { context in
            guard let pool = context.run.blockingPool else { preconditionFailure("a blocking command in a run without a blocking pool") }
            return try await pool.perform(runBlocking, for: context)
        }
    }

    /// A service: `serve` runs it, handing it a ``ReadySignal`` for its `Output`.
    init<Output: Sendable>(
        id: CommandID,
        dependencies: [CommandID],
        options: CommandOptions,
        outputType: Output.Type,
        serve: @escaping @Sendable (StartupContext, ReadySignal<Output>) async throws -> Void
    ) {
        self.init(
            id: id, dependencies: dependencies, options: options, producesOutput: Output.self != Void.self,
            serve: { context, attempt in try await serve(context, ReadySignal(attempt)) },
            execute: { _ in preconditionFailure("a service is run by its serve closure") })
    }

    /// Runs a main-actor command's attempt between the tracer's calls, all on the main actor.
    @MainActor
    private static func runOnMainActor<Output: Sendable>(
        _ context: StartupContext, _ execute: @MainActor @Sendable (StartupContext) async throws -> Output
    ) async throws -> Output {
        guard let tracer = context.run.tracer else { return try await execute(context) }
        return try await context.traced(by: tracer) { try await execute(context) }
    }
}
