import StartupKit

/// Binds the ids of a manifest to Swift implementations, so an app and the `startup` CLI share one
/// `commands.json`: the manifest gives the graph and options, the binding the work.
///
/// ```swift
/// var binding = ManifestBinding()
/// binding.bind(Database())                        // a StartupCommand whose id is in the manifest
/// binding.bind(FirstScreen())                     // a MainActorStartupCommand
/// binding.bind("warm-cache") { context in try await cache.warm() }
/// binding.bindOnMainActor("theme") { context in ThemeManager.apply() }
/// binding.bind(Analytics())                       // a BlockingStartupCommand: on the blocking pool
/// binding.bindBlocking("keychain") { context in try Keychain.load() }
/// binding.bind(DatabaseService())                 // a StartupService: ready, then serving
/// binding.bindGate("first-frame")                 // a milestone the app opens with run.open
/// let plan = try manifest.makePlan(binding)
/// ```
public struct ManifestBinding: Sendable {
    /// Adds one bound command to a builder, given the manifest's dependencies, `after` edges and
    /// options.
    typealias Adder = @Sendable (inout StartupPlanBuilder, [CommandID], [CommandID], CommandOptions) -> Void

    /// What an id is bound to.
    enum Bound: Sendable {
        /// Work: a command type or a closure.
        case implementation(Adder)
        /// A gate (``StartupPlanBuilder/addGate(_:dependsOn:after:)``), bound to a milestone.
        case gate
    }

    private(set) var bindings: [CommandID: Bound] = [:]

    /// Creates an empty binding.
    public init() {}

    /// Binds a command type to the manifest command with its id. Its dependencies and options
    /// come from the manifest; its own are ignored.
    public mutating func bind<Command: StartupCommand>(_ command: Command) {
        bindings[Command.id] = .implementation { builder, dependencies, after, options in
            builder.add(Command.id, dependsOn: dependencies, after: after, options: options, execute: command.execute)
        }
    }

    /// Binds a command type whose work runs on the main actor to the manifest command with its
    /// id. Its dependencies, `after` edges and options come from the manifest; its own are ignored.
    public mutating func bind<Command: MainActorStartupCommand>(_ command: Command) {
        bindings[Command.id] = .implementation { builder, dependencies, after, options in
            builder.addOnMainActor(Command.id, dependsOn: dependencies, after: after, options: options) { context in
                try await command.execute(context)
            }
        }
    }

    /// Binds a blocking command type to the manifest command with its id: it runs on the run's
    /// blocking pool. Its dependencies, `after` edges and options come from the manifest; its own are ignored.
    public mutating func bind<Command: BlockingStartupCommand>(_ command: Command) {
        bindings[Command.id] = .implementation { builder, dependencies, after, options in
            builder.addBlocking(Command.id, dependsOn: dependencies, after: after, options: options, execute: command.execute)
        }
    }

    /// Binds a synchronous closure that may block its thread to the manifest command `id`: it
    /// runs on the run's blocking pool.
    public mutating func bindBlocking<Output: Sendable>(
        _ id: CommandID, execute: @escaping @Sendable (StartupContext) throws -> Output
    ) {
        bindings[id] = .implementation { builder, dependencies, after, options in
            builder.addBlocking(id, dependsOn: dependencies, after: after, options: options, execute: execute)
        }
    }

    /// Binds a closure to the manifest command `id`.
    public mutating func bind<Output: Sendable>(
        _ id: CommandID, execute: @escaping @Sendable (StartupContext) async throws -> Output
    ) {
        bindings[id] = .implementation { builder, dependencies, after, options in
            builder.add(id, dependsOn: dependencies, after: after, options: options, execute: execute)
        }
    }

    /// Binds a closure that runs on the main actor to the manifest command `id`.
    public mutating func bindOnMainActor<Output: Sendable>(
        _ id: CommandID, execute: @escaping @MainActor @Sendable (StartupContext) async throws -> Output
    ) {
        bindings[id] = .implementation { builder, dependencies, after, options in
            builder.addOnMainActor(id, dependsOn: dependencies, after: after, options: options, execute: execute)
        }
    }

    /// Binds a service type to the manifest command with its id: dependents start when it is
    /// ready. Its dependencies, `after` edges and options come from the manifest; its own are ignored.
    public mutating func bind<Service: StartupService>(_ service: Service) {
        bindings[Service.id] = .implementation { builder, dependencies, after, options in
            builder.addService(
                Service.id, dependsOn: dependencies, after: after, options: options, output: Service.Output.self, run: service.run)
        }
    }

    /// Binds a service closure to the manifest command `id`: it calls `ready()` once it can
    /// serve, then serves until its task is cancelled at shutdown.
    public mutating func bindService(
        _ id: CommandID, run: @escaping @Sendable (StartupContext, ReadySignal<Void>) async throws -> Void
    ) {
        bindings[id] = .implementation { builder, dependencies, after, options in
            builder.addService(id, dependsOn: dependencies, after: after, options: options, run: run)
        }
    }

    /// Binds the manifest milestone `id` (a command without `run`) to a gate: it succeeds once
    /// the app calls `StartupRun.open(_:)` and its dependencies have succeeded. Work that should
    /// wait for the first frame depends on it in the manifest.
    public mutating func bindGate(_ id: CommandID) {
        bindings[id] = .gate
    }
}
