/// A start-up step that keeps running: a database pool, a cache, a server. It signals when it is
/// ready, and what depends on it starts then, not when it was merely started; at shutdown it is
/// cancelled after everything that depends on it has stopped.
///
/// ```swift
/// struct Database: StartupService {
///     static let id: CommandID = "database"
///     let dependencies: [CommandID] = [Configuration.id]
///     func run(_ context: StartupContext, ready: ReadySignal<DatabasePool>) async throws {
///         let pool = try await DatabasePool.open(try context.output(of: Configuration.self).databaseURL)
///         ready(pool)                               // dependents start now and read `pool`
///         try await pool.serveUntilCancelled()      // runs until shutdown cancels it
///     }
/// }
/// ```
///
/// For its dependents, the critical path and the report, a service is done when it signals
/// ready: its duration is its time to ready, and its ``CommandOptions/timeout`` bounds that time.
/// A service that returns or throws before it is ready has failed, like a command (and is
/// retried as its options say). One that ends by itself after it was ready is reported
/// (``StartupEvent/serviceEnded(_:at:)``), and by default the run then shuts down
/// (``StartupOrchestrator/Options/whenAServiceEnds``).
public protocol StartupService: Sendable {
    /// What the service hands its dependents when it is ready; `Void` when nothing.
    associatedtype Output: Sendable = Void

    /// The service's identifier, unique within a plan.
    static var id: CommandID { get }

    /// The commands that must succeed (or services that must be ready) before it starts.
    var dependencies: [CommandID] { get }

    /// The commands this service runs after, if they run: it waits for each to end, whatever its
    /// outcome, but needs none of them (an order-only edge; see
    /// ``StartupPlanBuilder/add(_:dependsOn:after:options:execute:)``). One that is not in the
    /// plan, or will not run, is not waited for, and its output cannot be read.
    var after: [CommandID] { get }

    /// Priority, optionality, time-to-ready limit, retries, estimate and stop timeout.
    var options: CommandOptions { get }

    /// Starts the service, calls `ready` once it can serve, and then serves until its task is
    /// cancelled (at shutdown), returning promptly when it is.
    ///
    /// - Parameters:
    ///   - context: Gives access to the outputs of the service's dependencies.
    ///   - ready: Call it once, with the output dependents read; later calls do nothing.
    /// - Throws: Any error; before `ready`, the service fails; after it, the service is reported
    ///   as ended.
    func run(_ context: StartupContext, ready: ReadySignal<Output>) async throws
}

extension StartupService {
    /// No dependencies by default.
    public var dependencies: [CommandID] { [] }

    /// Runs after nothing by default.
    public var after: [CommandID] { [] }

    /// Default options: normal priority, required, no limit on the time to ready, no retries.
    public var options: CommandOptions { CommandOptions() }
}
