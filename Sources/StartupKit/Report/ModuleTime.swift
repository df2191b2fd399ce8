/// The launch time one module's commands took, from ``StartupReport/timeByModule(along:)``.
public struct ModuleTime: Sendable, Hashable {
    /// The module (``StartupModule/name``); `nil` for the app's own commands.
    public let module: String?
    /// The module's commands, in declaration order.
    public let commands: [CommandID]
    /// The sum of its commands' durations (``CommandReport/duration``).
    public let totalDuration: Duration
    /// The sum of the durations of its commands on the path the times were taken along.
    public let criticalPathDuration: Duration
    /// Its share of that path: ``criticalPathDuration`` over the durations of every command on
    /// the path, from 0 to 1; 0 when the path took no time.
    public let criticalPathShare: Double

    /// Creates a module's times, as ``StartupReport/timeByModule(along:)`` does.
    public init(
        module: String?, commands: [CommandID], totalDuration: Duration, criticalPathDuration: Duration,
        criticalPathShare: Double
    ) {
        self.module = module
        self.commands = commands
        self.totalDuration = totalDuration
        self.criticalPathDuration = criticalPathDuration
        self.criticalPathShare = criticalPathShare
    }
}
