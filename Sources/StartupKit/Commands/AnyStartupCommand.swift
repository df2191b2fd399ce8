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
        self.producesOutput = Output.self != Void.self
        self.execute = { context in try await execute(context) }
    }
}
