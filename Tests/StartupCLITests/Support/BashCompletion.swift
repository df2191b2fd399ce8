@testable import StartupCLI

/// Runs the bash completion script as bash would on a key press.
enum BashCompletion {
    /// Sources the bash script in `folder`, completes `words` (the last is the one being completed), and returns
    /// COMPREPLY, one entry a line; nothing may reach standard error.
    static func complete(_ words: [String], in folder: TemporaryDirectory) async throws -> (replies: [String], result: StartupBinary.Result)
    {
        let script = try folder.write("startup.bash", CompletionShell.bash.script)
        let quoted = words.map { "'" + $0.replacing("'", with: #"'\''"#) + "'" }.joined(separator: " ")
        let result = try await InstalledShell.run(
            "bash",
            """
            source \(script)
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _startup
            printf '%s\\n' "${COMPREPLY[@]}"
            """, in: folder.path)
        return (result.output.split(separator: "\n").map(String.init), result)
    }
}
