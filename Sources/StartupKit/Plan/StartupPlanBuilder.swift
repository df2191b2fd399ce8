import StartupSupport

/// Collects start-up commands and turns them into a validated ``StartupPlan``.
///
/// ```swift
/// var builder = StartupPlanBuilder()
/// builder.add(Configuration())
/// builder.add("warm-cache", dependsOn: ["database"]) { context in try await cache.warm() }
/// let plan = try builder.build()
/// ```
public struct StartupPlanBuilder: Sendable {
    private var commands: [AnyStartupCommand] = []
    /// The module whose ``StartupModule/register(into:)`` is running; `nil` for the app.
    private var currentModule: String?
    /// The ids removed so far, with the module that removed each (`nil`: the app), so that a
    /// dependency on one is reported as a removal rather than as an unknown id.
    private var removals: [CommandID: Removal] = [:]

    /// Creates an empty builder.
    public init() {}

    /// The number of commands added so far (and not removed).
    public var count: Int { commands.count }

    /// Whether a command with this id has been added and not removed.
    ///
    /// - Complexity: O(commands).
    public func contains(_ id: CommandID) -> Bool {
        commands.contains { $0.id == id }
    }

    /// Removes the command with this id, so the plan runs without it: how an app switches off a
    /// command that a module added (per build configuration, per launch context). Adding a
    /// command with the same id afterwards replaces it.
    ///
    /// A command that still depends on the removed id fails ``build()`` with
    /// ``PlanIssue/removedDependency(_:commandIndex:dependency:dependencyIndex:removedBy:)``,
    /// unless a command with that id is added again; a command that runs `after` it no longer
    /// waits for it.
    ///
    /// ```swift
    /// builder.add(module: AdsKit())
    /// #if DEBUG
    /// builder.remove("ads")
    /// #endif
    /// ```
    ///
    /// - Parameter id: The command to remove.
    /// - Returns: Whether a command with this id was there.
    /// - Complexity: O(commands).
    @discardableResult
    public mutating func remove(_ id: CommandID) -> Bool {
        let before = commands.count
        commands.removeAll { $0.id == id }
        guard commands.count < before else { return false }
        removals[id] = Removal(module: currentModule)
        return true
    }

    /// Adds a module's commands (``StartupModule/register(into:)``), attributing each one it adds
    /// to the module: errors and the report name it.
    ///
    /// - Parameter module: The module; adding the same module twice adds its commands twice (a
    ///   duplicate-id error that names it).
    public mutating func add(module: some StartupModule) {
        let outer = currentModule
        currentModule = module.name
        defer { currentModule = outer }
        module.register(into: &self)
    }

    /// Appends a command, attributed to the module being registered, with the commands it runs
    /// after.
    private mutating func append(_ command: AnyStartupCommand, after: [CommandID]) {
        var command = command
        command.module = currentModule
        command.after = after
        commands.append(command)
    }

    /// Adds a command.
    public mutating func add<Command: StartupCommand>(_ command: Command) {
        append(
            AnyStartupCommand(
                id: Command.id, dependencies: command.dependencies, options: command.options,
                execute: command.execute), after: command.after)
    }

    /// Adds a command whose work runs on the main actor.
    public mutating func add<Command: MainActorStartupCommand>(_ command: Command) {
        append(
            AnyStartupCommand(
                id: Command.id, dependencies: command.dependencies, options: command.options,
                onMainActor: { context in try await command.execute(context) }), after: command.after)
    }

    /// Adds a command whose work blocks its thread: it runs on the run's blocking pool, never on
    /// Swift's cooperative pool.
    public mutating func add<Command: BlockingStartupCommand>(_ command: Command) {
        append(
            AnyStartupCommand(
                id: Command.id, dependencies: command.dependencies, options: command.options, blocking: command.execute),
            after: command.after)
    }

    /// Adds a command given as a closure.
    ///
    /// - Parameters:
    ///   - id: The command's identifier.
    ///   - dependencies: The commands that must succeed first.
    ///   - after: The commands it runs after if they run, whatever their outcome (order-only
    ///     edges: their outputs cannot be read, and one that fails or will not run skips nothing).
    ///   - options: Priority, optionality, timeout, retries and estimate.
    ///   - execute: The work; its result is the output dependents can read.
    public mutating func add<Output: Sendable>(
        _ id: CommandID,
        dependsOn dependencies: [CommandID] = [],
        after: [CommandID] = [],
        options: CommandOptions = CommandOptions(),
        execute: @escaping @Sendable (StartupContext) async throws -> Output
    ) {
        append(AnyStartupCommand(id: id, dependencies: dependencies, options: options, execute: execute), after: after)
    }

    /// Adds a command given as a closure that runs on the main actor.
    ///
    /// - Parameters:
    ///   - id: The command's identifier.
    ///   - dependencies: The commands that must succeed first.
    ///   - after: The commands it runs after if they run, whatever their outcome (order-only
    ///     edges: their outputs cannot be read, and one that fails or will not run skips nothing).
    ///   - options: Priority, optionality, timeout, retries and estimate.
    ///   - execute: The work, run on the main actor; its result is the output dependents can read.
    public mutating func addOnMainActor<Output: Sendable>(
        _ id: CommandID,
        dependsOn dependencies: [CommandID] = [],
        after: [CommandID] = [],
        options: CommandOptions = CommandOptions(),
        execute: @escaping @MainActor @Sendable (StartupContext) async throws -> Output
    ) {
        append(AnyStartupCommand(id: id, dependencies: dependencies, options: options, onMainActor: execute), after: after)
    }

    /// Adds a command given as a synchronous closure that may block its thread (an SDK's
    /// `configure()`, a keychain read): it runs on the run's blocking pool
    /// (``StartupOrchestrator/Options/blockingThreads``), never on Swift's cooperative pool.
    ///
    /// ```swift
    /// builder.addBlocking("crash-reporting") { _ in CrashReporter.start() }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The command's identifier.
    ///   - dependencies: The commands that must succeed first.
    ///   - after: The commands it runs after if they run, whatever their outcome (order-only
    ///     edges: their outputs cannot be read, and one that fails or will not run skips nothing).
    ///   - options: Priority, optionality, timeout, retries and estimate.
    ///   - execute: The work, run on a pool thread; its result is the output dependents can read.
    public mutating func addBlocking<Output: Sendable>(
        _ id: CommandID,
        dependsOn dependencies: [CommandID] = [],
        after: [CommandID] = [],
        options: CommandOptions = CommandOptions(),
        execute: @escaping @Sendable (StartupContext) throws -> Output
    ) {
        append(AnyStartupCommand(id: id, dependencies: dependencies, options: options, blocking: execute), after: after)
    }

    /// Adds a service: it is ready, for its dependents, when it calls its ``ReadySignal``, and
    /// it keeps running until shutdown.
    public mutating func add<Service: StartupService>(_ service: Service) {
        append(
            AnyStartupCommand(
                id: Service.id, dependencies: service.dependencies, options: service.options,
                outputType: Service.Output.self, serve: service.run), after: service.after)
    }

    /// Adds a service given as a closure: it calls `ready` once it can serve, then serves until
    /// its task is cancelled at shutdown.
    ///
    /// - Parameters:
    ///   - id: The service's identifier.
    ///   - dependencies: The commands that must succeed first.
    ///   - after: The commands it runs after if they run, whatever their outcome (order-only
    ///     edges: their outputs cannot be read, and one that fails or will not run skips nothing).
    ///   - options: Priority, optionality, time-to-ready limit, retries, estimate, stop timeout.
    ///   - outputType: What the service hands its dependents when ready.
    ///   - run: The service's body.
    public mutating func addService<Output: Sendable>(
        _ id: CommandID,
        dependsOn dependencies: [CommandID] = [],
        after: [CommandID] = [],
        options: CommandOptions = CommandOptions(),
        output outputType: Output.Type,
        run: @escaping @Sendable (StartupContext, ReadySignal<Output>) async throws -> Void
    ) {
        append(
            AnyStartupCommand(
                id: id, dependencies: dependencies, options: options, outputType: outputType, serve: run), after: after)
    }

    /// Adds a service given as a closure that hands its dependents nothing: it calls `ready()`
    /// once it can serve, then serves until its task is cancelled at shutdown.
    ///
    /// - Parameters:
    ///   - id: The service's identifier.
    ///   - dependencies: The commands that must succeed first.
    ///   - after: The commands it runs after if they run, whatever their outcome (order-only
    ///     edges: their outputs cannot be read, and one that fails or will not run skips nothing).
    ///   - options: Priority, optionality, time-to-ready limit, retries, estimate, stop timeout.
    ///   - run: The service's body.
    public mutating func addService(
        _ id: CommandID,
        dependsOn dependencies: [CommandID] = [],
        after: [CommandID] = [],
        options: CommandOptions = CommandOptions(),
        run: @escaping @Sendable (StartupContext, ReadySignal<Void>) async throws -> Void
    ) {
        addService(id, dependsOn: dependencies, after: after, options: options, output: Void.self, run: run)
    }

    /// Adds a gate: a command with no work that succeeds once the run opens it
    /// (``StartupRun/open(_:)``) and its dependencies have succeeded. Work that should wait for
    /// the first frame, or for the app to be idle, depends on a gate. Gates are eager, and
    /// ``StartupOrchestrator/run()`` opens them at once.
    ///
    /// - Parameters:
    ///   - id: The gate's identifier.
    ///   - dependencies: The commands that must succeed before the gate can open.
    ///   - after: The commands that must have ended, if they run, before it can open.
    public mutating func addGate(_ id: CommandID, dependsOn dependencies: [CommandID] = [], after: [CommandID] = []) {
        append(AnyStartupCommand(id: id, dependencies: dependencies, options: CommandOptions(), isGate: true) { _ in }, after: after)
    }

    /// Validates the commands and sorts them into a plan.
    ///
    /// Every problem is reported at once: invalid ids (``PlanIssue/invalidID(_:commandIndex:)``),
    /// duplicate ids, commands depending on themselves,
    /// unknown dependencies (with the closest existing id as a suggestion) and every cycle with its
    /// full path. A dependency named twice by one command counts once.
    ///
    /// - Throws: ``PlanError`` listing every problem, in declaration order.
    /// - Complexity: O(commands + edges), without recursion; suggestions for unknown ids cost a
    ///   bounded amount each, after indexing the ids once (`IdentifierSuggestionIndex`).
    public func build() throws(PlanError) -> StartupPlan {
        let graph = Self.graph(
            of: commands.map(\.id), modules: { commands[$0].module }, removals: removals, after: { commands[$0].after }
        ) { commands[$0].dependencies }
        switch graph {
        case .success(let (index, graph)):
            return StartupPlan(storage: PlanStorage(commands: commands, index: index, graph: graph))
        case .failure(let error):
            throw error
        }
    }

    /// The problems `build()` would report for commands with these ids and dependencies, without
    /// making the plan: how a manifest checks its graph before anything is bound to it.
    package static func issues(
        ids: [CommandID], after: (Int) -> [CommandID] = { _ in [] }, dependencies: (Int) -> [CommandID]
    ) -> [PlanIssue] {
        switch graph(of: ids, after: after, dependencies: dependencies) {
        case .success: []
        case .failure(let error): error.issues
        }
    }

    /// Each id's position and the sorted graph of the commands `ids` names, `dependencies(i)` being what the i-th
    /// depends on; or every problem, in declaration order.
    ///
    /// `modules(i)` names the module that added the i-th (read only to word an error),
    /// `removals` the ids removed from the builder, and `after(i)` the commands the i-th runs
    /// after: those not in the plan are dropped (nothing to wait for), those it also depends on
    /// count as dependencies.
    private static func graph(
        of ids: [CommandID], modules: (Int) -> String? = { _ in nil }, removals: [CommandID: Removal] = [:],
        after: (Int) -> [CommandID] = { _ in [] }, dependencies: (Int) -> [CommandID]
    ) -> Result<([CommandID: Int], DependencyGraph), PlanError> {
        var issues: [PlanIssue] = []
        /// A cycle through the commands at `path` (the first repeated at the end), naming the
        /// modules that added them when any did.
        func cycleIssue(_ path: [Int]) -> PlanIssue {
            let pathModules = path.map(modules)
            guard pathModules.contains(where: { $0 != nil }) else { return .cycle(path.map { ids[$0] }, commandIndex: path[0]) }
            return .cycleAcrossModules(path.map { ids[$0] }, commandIndex: path[0], modules: pathModules)
        }
        var index: [CommandID: Int] = [:]
        index.reserveCapacity(ids.count)
        var isDuplicate = [Bool](repeating: false, count: ids.count)
        for position in ids.indices {
            let id = ids[position]
            if CommandIDRule.problem(with: id.rawValue) != nil { issues.append(.invalidID(id, commandIndex: position)) }
            // One hash lookup per command; a duplicate puts the first position back.
            if let first = index.updateValue(position, forKey: id) {
                index[id] = first
                isDuplicate[position] = true
                let (firstModule, duplicateModule) = (modules(first), modules(position))
                if firstModule == nil, duplicateModule == nil {
                    issues.append(.duplicateID(id, firstIndex: first, duplicateIndex: position))
                } else {
                    issues.append(
                        .duplicateIDAcrossModules(
                            id, firstIndex: first, duplicateIndex: position, firstModule: firstModule,
                            duplicateModule: duplicateModule))
                }
            }
        }

        var dependencyStart = [Int](repeating: 0, count: ids.count + 1)
        var dependencyList: [Int] = []
        dependencyList.reserveCapacity(ids.count * 4)
        var lastNamedBy = [Int](repeating: -1, count: ids.count)
        var suggestions: IdentifierSuggestionIndex?  // Built at the first unknown dependency.
        var orderOnlyStart: [Int] = []
        var hasOrderOnly = false  // `orderOnlyStart` is still empty when the first command has one.
        for position in ids.indices {
            // A duplicate keeps no edges: the error already names it, and its edges would confuse.
            if !isDuplicate[position] {
                for (dependencyIndex, dependency) in dependencies(position).enumerated() {
                    guard let target = index[dependency] else {
                        let id = ids[position]
                        if let removal = removals[dependency] {
                            issues.append(
                                .removedDependency(
                                    id, commandIndex: position, dependency: dependency, dependencyIndex: dependencyIndex,
                                    removedBy: removal.module))
                            continue
                        }
                        if suggestions == nil { suggestions = IdentifierSuggestionIndex(ids.map(\.rawValue)) }
                        let suggestion = suggestions?.closest(to: dependency.rawValue, excluding: id.rawValue).map { CommandID($0) }
                        if let module = modules(position) {
                            issues.append(
                                .unknownDependencyInModule(
                                    id, commandIndex: position, dependency: dependency, dependencyIndex: dependencyIndex,
                                    suggestion: suggestion, module: module))
                        } else {
                            issues.append(
                                .unknownDependency(
                                    id, commandIndex: position, dependency: dependency, dependencyIndex: dependencyIndex,
                                    suggestion: suggestion))
                        }
                        continue
                    }
                    if target == position {
                        issues.append(.selfDependency(ids[position], commandIndex: position, dependencyIndex: dependencyIndex))
                    } else if lastNamedBy[target] != position {
                        lastNamedBy[target] = position
                        dependencyList.append(target)
                    }
                }
            }
            // Order-only edges follow the dependencies in the same lists; the boundaries are kept
            // only once some command has one.
            let orderedAfter = isDuplicate[position] ? [] : after(position)
            if !orderedAfter.isEmpty, !hasOrderOnly {
                hasOrderOnly = true
                orderOnlyStart.reserveCapacity(ids.count)
                orderOnlyStart.append(contentsOf: dependencyStart[1..<(position + 1)])
            }
            if hasOrderOnly {
                orderOnlyStart.append(dependencyList.count)
                for predecessor in orderedAfter {
                    guard let target = index[predecessor] else { continue }
                    if target == position {
                        issues.append(cycleIssue([position, position]))
                    } else if lastNamedBy[target] != position {
                        lastNamedBy[target] = position
                        dependencyList.append(target)
                    }
                }
            }
            dependencyStart[position + 1] = dependencyList.count
        }

        switch DependencyGraph.make(
            dependencyStart: dependencyStart, dependencyList: dependencyList, orderOnlyDependencyStart: orderOnlyStart)
        {
        case .success(let graph) where issues.isEmpty:
            return .success((index, graph))
        case .success:
            break
        case .failure(let unsorted):
            let cycles = CycleFinder.cycles(among: unsorted.isUnsorted) { command in
                dependencyList[dependencyStart[command]..<dependencyStart[command + 1]]
            }
            for cycle in cycles {
                issues.append(cycleIssue(cycle))
            }
        }
        return .failure(
            PlanError(
                issues: issues.enumerated()
                    .sorted { ($0.element.commandIndex, $0.offset) < ($1.element.commandIndex, $1.offset) }
                    .map(\.element)))
    }
}

extension StartupPlanBuilder {
    /// An id removed from the builder, and by whom.
    struct Removal: Sendable {
        /// The module whose registration removed it; `nil` for the app.
        let module: String?
    }
}
