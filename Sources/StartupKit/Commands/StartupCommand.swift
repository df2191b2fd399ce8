/// One step of an application's start-up: it names the commands it depends on and does its work
/// once they have all succeeded.
///
/// ```swift
/// struct Database: StartupCommand {
///     static let id: CommandID = "database"
///     let dependencies: [CommandID] = [Configuration.id]
///     func execute(_ context: StartupContext) async throws -> DatabasePool {
///         let config = try context.output(of: Configuration.self)
///         return try await DatabasePool.open(config.databaseURL)
///     }
/// }
/// ```
///
/// A command's `Output` is handed to the commands that depend on it through
/// ``StartupContext/output(of:)-66o9l``.
public protocol StartupCommand: Sendable {
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

    /// Does the command's work.
    ///
    /// - Parameter context: Gives access to the outputs of the command's dependencies.
    /// - Returns: The output that dependents can read.
    /// - Throws: Any error; the command then fails (or is retried, as its options say).
    func execute(_ context: StartupContext) async throws -> Output
}

extension StartupCommand {
    /// No dependencies by default.
    public var dependencies: [CommandID] { [] }

    /// Runs after nothing by default.
    public var after: [CommandID] { [] }

    /// Default options: normal priority, required, no timeout, no retries.
    public var options: CommandOptions { CommandOptions() }
}
