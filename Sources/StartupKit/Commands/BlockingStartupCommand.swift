/// A start-up command whose work is synchronous and may block its thread: an SDK's
/// `configure()`, a keychain read, a driver that opens a file.
///
/// It runs on a thread pool of StartupKit's own (``StartupOrchestrator/Options/blockingThreads``),
/// never on Swift's cooperative pool, whose few threads (about one per core) would otherwise be
/// held and stall every other command, the first screen's included.
///
/// ```swift
/// struct Analytics: BlockingStartupCommand {
///     static let id: CommandID = "analytics"
///     let dependencies: [CommandID] = [Configuration.id]
///     func execute(_ context: StartupContext) throws -> AnalyticsClient {
///         AnalyticsClient.configure(try context.output(of: Configuration.self).analyticsKey)
///     }
/// }
/// ```
///
/// It is scheduled like any other command and counts against
/// ``StartupOrchestrator/Options/maxConcurrency``. It cannot be interrupted: a timeout abandons it
/// after the run's cancellation grace, and its thread finishes on its own.
public protocol BlockingStartupCommand: Sendable {
    /// What the command produces for its dependents; `Void` when it produces nothing.
    associatedtype Output: Sendable = Void

    /// The command's identifier, unique within a plan.
    static var id: CommandID { get }

    /// The commands that must succeed before this one starts.
    var dependencies: [CommandID] { get }

    /// The commands this command runs after, if they run: it waits for each to end, whatever its
    /// outcome, but needs none of them (an order-only edge; see
    /// ``StartupPlanBuilder/add(_:dependsOn:after:options:execute:)``). One that is not in the
    /// plan, or will not run, is not waited for, and its output cannot be read.
    var after: [CommandID] { get }

    /// Priority, optionality, timeout, retries and estimate of the command.
    var options: CommandOptions { get }

    /// Does the command's work on a thread of StartupKit's blocking pool.
    ///
    /// - Parameter context: Gives access to the outputs of the command's dependencies.
    /// - Returns: The output that dependents can read.
    /// - Throws: Any error; the command then fails (or is retried, as its options say).
    func execute(_ context: StartupContext) throws -> Output
}

extension BlockingStartupCommand {
    /// No dependencies by default.
    public var dependencies: [CommandID] { [] }

    /// Runs after nothing by default.
    public var after: [CommandID] { [] }

    /// Default options: normal priority, required, no timeout, no retries.
    public var options: CommandOptions { CommandOptions() }
}
