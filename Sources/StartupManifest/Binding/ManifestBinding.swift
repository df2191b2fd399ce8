import StartupKit

/// Binds the ids of a manifest to Swift implementations, so an app and the `startup` CLI share one
/// `commands.json`: the manifest gives the graph and options, the binding the work.
///
/// ```swift
/// var binding = ManifestBinding()
/// binding.bind(Database())                        // a StartupCommand whose id is in the manifest
/// binding.bind("warm-cache") { context in try await cache.warm() }
/// let plan = try manifest.makePlan(binding)
/// ```
public struct ManifestBinding: Sendable {
    /// Adds one bound command to a builder, given the manifest's dependencies and options.
    typealias Adder = @Sendable (inout StartupPlanBuilder, [CommandID], CommandOptions) -> Void

    private(set) var adders: [CommandID: Adder] = [:]

    /// Creates an empty binding.
    public init() {}

    /// Binds a command type to the manifest command with its id. Its dependencies and options
    /// come from the manifest; its own are ignored.
    public mutating func bind<Command: StartupCommand>(_ command: Command) {
        adders[Command.id] = { builder, dependencies, options in
            builder.add(Command.id, dependsOn: dependencies, options: options, execute: command.execute)
        }
    }

    /// Binds a closure to the manifest command `id`.
    public mutating func bind<Output: Sendable>(
        _ id: CommandID, execute: @escaping @Sendable (StartupContext) async throws -> Output
    ) {
        adders[id] = { builder, dependencies, options in
            builder.add(id, dependsOn: dependencies, options: options, execute: execute)
        }
    }
}
