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

    /// Prints the ids of the run of the manifest at `path` that is up, one a line, in plan order; the manifest's
    /// when no run answers within `limit` (as ``printIDs(ofManifest:console:)``): a key press should not wait longer.
    static func printRunIDs(
        ofManifest path: String, console: Console, environment: [String: String], waitingAtMost limit: Duration = .seconds(5)
    ) async {
        let socket = ControlSocketPath.forManifest(path, environment: environment)
        let ids = await DedicatedThread.result { () -> [String]? in
            guard case .success(let descriptor) = ControlClient.connect(socket) else { return nil }
            defer { close(descriptor) }
            var ids: [String] = []
            let deadline = SocketLineReader.now() + UInt64(limit.components.seconds) * 1_000_000_000
            guard
                case .ok? = ControlClient.exchange(
                    .ps, on: descriptor, deadline: deadline,
                    answer: { answer in
                        if case .row(let row) = answer { ids.append(row.id.rawValue) }
                    })
            else { return nil }
            return ids
        }
        guard let ids else { return printIDs(ofManifest: path, console: console) }
        console.out(ids.map { $0 + "\n" }.joined())
    }
}
