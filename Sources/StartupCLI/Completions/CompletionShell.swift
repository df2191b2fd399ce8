/// A shell `startup completions` writes a completion script for.
package enum CompletionShell: String, CaseIterable, Sendable {
    /// bash 3.2 or later (the script is a function registered with `complete -F`).
    case bash
    /// zsh, through `compinit` (the script is a `#compdef` function for a folder on `fpath`).
    case zsh
    /// fish (the script is `complete` lines for `~/.config/fish/completions`).
    case fish

    /// The completion script: the subcommands, each one's options (``OptionDeclarations``), the
    /// values of choice options, file names for path options, folder names for folder options
    /// (`--log-dir`), and, for `run` and `plan`, the
    /// command ids of the manifest in effect, which the script gets from
    /// `startup completions --ids [-f FILE]`.
    var script: String {
        switch self {
        case .bash: BashCompletionScript.text
        case .zsh: ZshCompletionScript.text
        case .fish: FishCompletionScript.text
        }
    }
}
