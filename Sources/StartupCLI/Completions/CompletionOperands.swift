/// What a subcommand takes besides its options, as a completion script completes it.
enum CompletionOperands: Equatable {
    /// Nothing.
    case none
    /// The manifest's command ids (`startup run ID...`).
    case commandIDs
    /// The ids of the run that is up, else of the manifest (`startup restart ID...`).
    case runIDs
    /// File names (reports).
    case files
    /// One of these words.
    case words([String])

    /// The operands of `subcommand`.
    static func of(_ subcommand: Invocation.Subcommand) -> CompletionOperands {
        switch subcommand {
        case .plan, .run: .commandIDs
        case .plot, .diff: .files
        case .graph, .ps, .down, .events: .none
        case .restart, .stop, .start, .logs: .runIDs
        case .completions: .words(CompletionShell.allCases.map(\.rawValue))
        }
    }

}
