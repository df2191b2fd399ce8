/// When a command starts: as soon as its dependencies have succeeded, or only once something
/// needs it.
public enum Activation: Sendable, Hashable {
    /// Starts as soon as its dependencies have succeeded (the default).
    case eager
    /// Starts only when something needs it: ``StartupRun/output(of:as:)``, ``StartupRun/wait(for:timeout:)-([CommandID],_)``,
    /// or a command that is itself started and depends on it. Its own dependencies start with it.
    /// Never needed, it ends ``CommandStatus/notRequested``. An on-demand command that an eager
    /// command depends on is eager.
    case onDemand
}
