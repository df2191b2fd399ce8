/// What a running command sees: its own identity and the outputs of the commands it depends on.
public struct StartupContext: Sendable {
    /// The identifier of the command being executed.
    public var commandID: CommandID { plan.storage.commands[index].id }

    /// The attempt being made, counted from 1; above 1 when the command is being retried.
    public let attempt: Int

    /// For a service being restarted after it ended (``RestartPolicy``), the restart, counted
    /// from 1; 0 for its first run and for a command.
    public let restart: Int

    let index: Int
    /// The run's plan and outputs, as seen by one worker.
    let run: WorkerResources

    init(attempt: Int, restart: Int = 0, index: Int, run: WorkerResources) {
        self.attempt = attempt
        self.restart = restart
        self.index = index
        self.run = run
    }

    var plan: StartupPlan { run.plan }
    var outputs: OutputStore { run.outputs }

    /// Returns the output of a command this one depends on, directly or transitively.
    ///
    /// - Parameter command: The dependency's type.
    /// - Throws: ``StartupContextError`` when the command is not a dependency or its output has
    ///   another type.
    public func output<Command: StartupCommand>(of command: Command.Type) throws -> Command.Output {
        try output(of: Command.id, as: Command.Output.self)
    }

    /// Returns the output of a main-actor command this one depends on, directly or transitively.
    ///
    /// - Parameter command: The dependency's type.
    /// - Throws: ``StartupContextError`` when the command is not a dependency or its output has
    ///   another type.
    public func output<Command: MainActorStartupCommand>(of command: Command.Type) throws -> Command.Output {
        try output(of: Command.id, as: Command.Output.self)
    }

    /// Returns the output of a blocking command this one depends on, directly or transitively.
    ///
    /// - Parameter command: The dependency's type.
    /// - Throws: ``StartupContextError`` when the command is not a dependency or its output has
    ///   another type.
    public func output<Command: BlockingStartupCommand>(of command: Command.Type) throws -> Command.Output {
        try output(of: Command.id, as: Command.Output.self)
    }

    /// Returns the output of the command `id`, which must be a direct or transitive dependency.
    ///
    /// Reading any other command's output is an error, never a race: a dependency has always
    /// finished before its dependents start.
    ///
    /// - Parameters:
    ///   - id: The dependency's identifier.
    ///   - type: The type of its output.
    /// - Throws: ``StartupContextError`` when `id` is unknown, not a dependency, or its output is
    ///   not a `T`.
    /// - Complexity: O(1) for a direct dependency; O(ancestors) for a transitive one.
    public func output<T: Sendable>(of id: CommandID, as type: T.Type = T.self) throws -> T {
        guard let dependency = plan.storage.index[id] else {
            throw StartupContextError(
                code: .unknownCommand, command: commandID, requested: id, module: plan.storage.commands[index].module)
        }
        guard plan.storage.graph.isDependency(dependency, of: index) else {
            let isOnlyOrdered = plan.storage.graph.orderOnlyPredecessors(of: index).contains(dependency)
            throw StartupContextError(
                code: isOnlyOrdered ? .onlyOrdered : .notADependency, command: commandID, requested: id,
                module: plan.storage.commands[index].module, requestedModule: plan.storage.commands[dependency].module)
        }
        let value: (any Sendable)? = outputs.value(at: dependency)
        if T.self == Void.self, value == nil, let void = () as? T {
            return void
        }
        guard let typed = value as? T else {
            let found = value.map { String(describing: Swift.type(of: $0)) } ?? "Void"
            throw StartupContextError(
                code: .outputTypeMismatch, command: commandID, requested: id,
                detail: "its output is \(found), not \(T.self)", module: plan.storage.commands[index].module,
                requestedModule: plan.storage.commands[dependency].module)
        }
        return typed
    }
}

extension StartupContext {
    /// Runs an attempt's async work between `tracer`'s two calls, in the caller's isolation (on
    /// the main actor for a main-actor command).
    func traced<T>(
        by tracer: any StartupTracer, isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async throws -> T {
        tracer.attemptWillStart(commandID, attempt: attempt)
        var failure: (any Error)?
        defer { tracer.attemptDidEnd(commandID, attempt: attempt, error: failure) }
        do { return try await work() } catch {
            failure = error
            throw error
        }
    }

    /// Runs an attempt's synchronous work between `tracer`'s two calls.
    func traced<T>(by tracer: any StartupTracer, _ work: () throws -> T) throws -> T {
        tracer.attemptWillStart(commandID, attempt: attempt)
        var failure: (any Error)?
        defer { tracer.attemptDidEnd(commandID, attempt: attempt, error: failure) }
        do { return try work() } catch {
            failure = error
            throw error
        }
    }
}
