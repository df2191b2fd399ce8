/// When a command starts: as soon as its dependencies have succeeded, or only once something
/// needs it.
///
/// Complete: a command starts either with its dependencies or when something needs it; other ways
/// to start are options, not cases. No case will be added before a major version, so a `switch`
/// over it may list every case without a `default`.
public enum Activation: Sendable, Hashable {
    /// Starts as soon as its dependencies have succeeded (the default).
    case eager
    /// Starts only when something needs it: ``StartupRun/output(of:as:)``, ``StartupRun/wait(for:timeout:)-([CommandID],_)``,
    /// or a command that is itself started and depends on it. Its own dependencies start with it.
    /// Never needed, it ends ``CommandStatus/notRequested``. An on-demand command that an eager
    /// command depends on is eager.
    case onDemand
}
