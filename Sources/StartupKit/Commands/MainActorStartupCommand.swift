/// A start-up command whose work must run on the main actor, such as setting up the first screen.
///
/// It is scheduled like any other command; only its `execute` runs on the main actor.
public protocol MainActorStartupCommand: Sendable {
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

    /// Does the command's work on the main actor.
    ///
    /// - Parameter context: Gives access to the outputs of the command's dependencies.
    /// - Returns: The output that dependents can read.
    @MainActor
    func execute(_ context: StartupContext) async throws -> Output
}

extension MainActorStartupCommand {
    /// No dependencies by default.
    public var dependencies: [CommandID] { [] }

    /// Runs after nothing by default.
    public var after: [CommandID] { [] }

    /// Default options: normal priority, required, no timeout, no retries.
    public var options: CommandOptions { CommandOptions() }
}
