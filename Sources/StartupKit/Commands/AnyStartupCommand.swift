/// A command of any kind, reduced to what the plan and the orchestrator need.
struct AnyStartupCommand: Sendable {
    /// The command's identifier.
    let id: CommandID
    /// The identifiers of the commands it depends on, as declared.
    let dependencies: [CommandID]
    /// Its priority, optionality, timeout, retries and estimate.
    let options: CommandOptions
    /// False when the output is `Void`, so nothing needs storing.
    let producesOutput: Bool
    /// Runs the command and returns its output.
    let execute: @Sendable (StartupContext) async throws -> any Sendable

    init<Output: Sendable>(
        id: CommandID,
        dependencies: [CommandID],
        options: CommandOptions,
        execute: @escaping @Sendable (StartupContext) async throws -> Output
    ) {
        self.id = id
        self.dependencies = dependencies
        self.options = options
        self.producesOutput = Output.self != Void.self
        self.execute = { context in try await execute(context) }
    }
}
