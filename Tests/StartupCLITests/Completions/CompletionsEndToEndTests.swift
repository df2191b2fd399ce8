import Foundation
import Testing

@testable import StartupCLI

/// `startup completions` run as a user runs it: the scripts, the ids they call back for, the scripts
/// completing in their shells, and the usage errors.
@Suite struct CompletionsEndToEndTests {
    private let manifest = """
        {"version": 1, "commands": [
          {"id": "database", "run": "true"},
          {"id": "cache", "run": "true"},
          {"id": "api", "dependencies": ["database", "cache"], "run": "true", "onDemand": true}
        ]}
        """

    private let other = """
        {"version": 1, "commands": [{"id": "search-index", "run": "true"}, {"id": "session", "run": "true"}]}
        """

    @Test func ids_listsTheManifestsCommandIds_oneALine_inOrder() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        try folder.write("other.json", other)
        let plain = try await StartupBinary.run(["completions", "--ids"], in: folder.path)
        #expect(plain.status == 0)
        #expect(plain.output == "database\ncache\napi\n")
        #expect(plain.error == "")
        let named = try await StartupBinary.run(["completions", "--ids", "-f", "other.json"], in: folder.path)
        #expect(named.output == "search-index\nsession\n")
    }

    @Test(arguments: [
        ["completions", "--ids"],
        ["completions", "--ids", "--file", "broken.json"],
        ["completions", "--ids", "-f", "-"],
        ["completions", "--ids", "-f", "."],
    ])
    func ids_printsNothingAndSucceeds_whenThereIsNoUsableManifest(arguments: [String]) async throws {
        let folder = try TemporaryDirectory()
        try folder.write("broken.json", #"{"version": 1, "commands": [{"id": "a", "dependencies": ["b"]}]}"#)
        let result = try await StartupBinary.run(arguments, in: folder.path)
        #expect(result.status == 0)
        #expect(result.output == "")
        #expect(result.error == "")
    }

    @Test func script_printsForEachShell() async throws {
        let folder = try TemporaryDirectory()
        for shell in CompletionShell.allCases {
            let result = try await StartupBinary.run(["completions", shell.rawValue], in: folder.path)
            #expect(result.status == 0)
            #expect(result.output == shell.script)
            #expect(result.error == "")
        }
    }

    @Test(arguments: [
        (["completions"], "completions needs a shell, bash, zsh or fish, as in: startup completions bash"),
        (["completions", "bsh"], #"unknown shell "bsh" (did you mean "bash"?); the shells are bash, zsh and fish"#),
        (["completions", "tcsh"], #"unknown shell "tcsh"; the shells are bash, zsh and fish"#),
        (["completions", "bash", "zsh"], #"unexpected argument "zsh"; completions prints one shell's script"#),
        (["completions", "--shell", "bash"], "unknown option --shell"),
        (["completions", "--ids", "bash"], #"unexpected argument "bash"; --ids takes no shell"#),
        (["completions", "bash", "-f", "x.json"], "--file names the manifest of --ids; a script reads the manifest when it completes"),
    ])
    func completions_withoutAKnownShell_isAUsageError(arguments: [String], message: String) async throws {
        let folder = try TemporaryDirectory()
        let result = try await StartupBinary.run(arguments, in: folder.path)
        #expect(result.status == 64)
        #expect(result.output == "")
        #expect(result.error == "error: \(message)\nUsage: see startup completions --help\n")
    }

    /// COMPREPLY for `words` (the last word is the one being completed), from the sourced bash script.
    private func bashCompletions(_ words: [String], in folder: TemporaryDirectory) async throws -> [String] {
        let (replies, result) = try await BashCompletion.complete(words, in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error == "")
        return replies
    }

    @Test(.enabled(if: InstalledShell.path("bash") != nil, "bash is not installed: the bash script was not run"))
    func bashScript_completesRunWithTheManifestsIds_andHonoursFile() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        try folder.write("other.json", other)
        #expect(try await bashCompletions(["startup", "run", ""], in: folder) == ["database", "cache", "api"])
        #expect(try await bashCompletions(["startup", "plan", "-j", "2", "c"], in: folder) == ["cache"])
        #expect(try await bashCompletions(["startup", "run", "-f", "other.json", "se"], in: folder) == ["search-index", "session"])
        #expect(try await bashCompletions(["startup", "run", "--file", "=", "other.json", ""], in: folder) == ["search-index", "session"])
        #expect(try await bashCompletions(["startup", "run", "--format", ""], in: folder) == ["text", "json"])
        #expect(try await bashCompletions(["startup", "graph", "--format", "=", "m"], in: folder) == ["mermaid"])
        #expect(try await bashCompletions(["startup", "run", "--fail"], in: folder) == ["--fail-fast"])
        #expect(try await bashCompletions(["startup", "comp"], in: folder) == ["completions"])
        #expect(try await bashCompletions(["startup", "completions", ""], in: folder) == ["bash", "zsh", "fish"])
        #expect(try await bashCompletions(["startup", "plot", "oth"], in: folder) == ["other.json"])
        try FileManager.default.createDirectory(atPath: folder.file("logs"), withIntermediateDirectories: false)
        #expect(try await bashCompletions(["startup", "run", "--log-dir", ""], in: folder) == ["logs"], "folders only")
    }

    @Test(.enabled(if: InstalledShell.path("bash") != nil, "bash is not installed: the bash script was not run"))
    func bashScript_quotesIds_andNeverRunsThem() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "$(touch${IFS}pwned)", "run": "true"}]}"#)
        #expect(try await bashCompletions(["startup", "run", ""], in: folder) == [#"\$\(touch\$\{IFS\}pwned\)"#])
        #expect(!FileManager.default.fileExists(atPath: folder.file("pwned")))
    }

    @Test(.enabled(if: InstalledShell.path("fish") != nil, "fish is not installed: the fish script was not run"))
    func fishScript_completesRunWithTheManifestsIds_andHonoursFile() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        try folder.write("other.json", other)
        let script = try folder.write("startup.fish", CompletionShell.fish.script)
        let result = try await InstalledShell.run(
            "fish",
            """
            source \(script)
            complete -C 'startup run '
            echo next
            complete -C 'startup plan --file=other.json s'
            """, in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        let words = result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(words == ["api", "cache", "database", "next", "search-index", "session"])
    }
}
