import StartupManifest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `startup completions`: prints a shell's completion script, or, for the scripts,
/// the command ids of a manifest.
enum CompletionsCommand {
    /// Prints the completion script for `shell`.
    static func printScript(for shell: CompletionShell, console: Console) {
        console.out(shell.script)
    }

    /// Prints the ids of the manifest at `path`, one a line, in the manifest's order. Prints
    /// nothing when the manifest is missing, invalid, or not a regular file (standard input, a pipe
    /// or a FIFO would block a shell's completion), since a completion has no place to show an error.
    static func printIDs(ofManifest path: String, console: Console) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let manifest = try? Manifest.load(path: path) else { return }
        console.out(manifest.commands.map { $0.id.rawValue + "\n" }.joined())
    }
}
