import Foundation
import Testing

@testable import StartupCLI

/// The completion scripts: valid for their shell, and complete, checked against the option
/// declarations they are generated from.
@Suite struct CompletionScriptTests {
    /// The lines of the bash script's `case` branch for `subcommand`.
    private func bashBranch(of subcommand: Invocation.Subcommand) throws -> [String] {
        let lines = CompletionShell.bash.script.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "        \(subcommand.rawValue))"))
        let end = try #require(lines[start...].firstIndex { $0.hasSuffix(";;") && !$0.hasPrefix("                ") })
        return Array(lines[start...end])
    }

    @Test(arguments: Invocation.Subcommand.allCases)
    func bashScript_offersEveryShownOptionOfTheSubcommand_andNoHiddenOne(subcommand: Invocation.Subcommand) throws {
        let branch = try bashBranch(of: subcommand)
        let offered = try #require(branch.first { $0.contains("[[ $cur == -* ]]") })
        let words = offered.split(separator: "'")[1].split(separator: " ").map(String.init)
        #expect(words == OptionDeclarations.shown(for: subcommand).flatMap(\.names))
        for option in OptionDeclarations.shown(for: subcommand) {
            guard case .choices(let choices) = option.value?.completion else { continue }
            #expect(
                branch.contains {
                    $0.contains("\(option.names.joined(separator: "|"))) _startup_words '\(choices.joined(separator: " "))'")
                })
        }
    }

    @Test(arguments: Invocation.Subcommand.allCases)
    func zshScript_specifiesEveryShownOptionOfTheSubcommand(subcommand: Invocation.Subcommand) throws {
        let script = CompletionShell.zsh.script
        let start = try #require(script.range(of: "        (\(subcommand.rawValue))\n"))
        let end = try #require(script[start.upperBound...].range(of: " && ret=0 ;;"))
        let branch = script[start.upperBound..<end.lowerBound]
        for option in OptionDeclarations.shown(for: subcommand) {
            let suffix = option.value == nil ? "" : "="
            #expect(branch.contains(option.name + suffix + (option.shortName == nil ? "[" : "}")), "\(option.name)")
            if let short = option.shortName { #expect(branch.contains("{\(short)\(option.value == nil ? "" : "+"),")) }
            if case .choices(let choices) = option.value?.completion { #expect(branch.contains("(\(choices.joined(separator: " ")))")) }
        }
        #expect(!branch.contains("--ids"))
    }

    @Test(arguments: Invocation.Subcommand.allCases)
    func fishScript_hasACompleteLineForEveryShownOptionOfTheSubcommand(subcommand: Invocation.Subcommand) {
        let lines = CompletionShell.fish.script.split(separator: "\n").filter { $0.contains("-n '__startup_using \(subcommand.rawValue)") }
        for option in OptionDeclarations.shown(for: subcommand) {
            let short = option.shortName.map { " -s \($0.dropFirst())" } ?? ""
            #expect(lines.contains { $0.contains("\(short) -l \(option.name.dropFirst(2)) ") }, "\(option.name)")
        }
        #expect(!lines.contains { $0.contains("-l ids") })
    }

    @Test func aFolderOption_completesFolderNames_inEveryShell() throws {
        #expect(try bashBranch(of: .run).contains { $0.contains(#"--log-dir) _startup_folders "$cur"; return ;;"#) })
        #expect(CompletionShell.zsh.script.contains(":dir:_files -/'"))
        #expect(CompletionShell.fish.script.contains("-l log-dir -x -a '(__fish_complete_directories (commandline -ct))'"))
    }

    @Test func everyScript_offersEverySubcommand() {
        for shell in CompletionShell.allCases {
            for subcommand in Invocation.Subcommand.allCases {
                #expect(shell.script.contains(subcommand.rawValue + (shell == .zsh ? ":" : "")), "\(shell) \(subcommand)")
            }
        }
    }

    /// Checks the script of `shell` with `shell -n`.
    private func checkSyntax(_ shell: CompletionShell) async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("startup.\(shell.rawValue)", shell.script)
        let result = try await InstalledShell.run(shell.rawValue, "\(shell.rawValue) -n \(file)", in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error == "")
    }

    @Test(.enabled(if: InstalledShell.path("bash") != nil, "bash is not installed: its script was not checked"))
    func bashScript_isValidBash() async throws {
        try await checkSyntax(.bash)
    }

    @Test(.enabled(if: InstalledShell.path("zsh") != nil, "zsh is not installed: its script was not checked"))
    func zshScript_isValidZsh() async throws {
        try await checkSyntax(.zsh)
    }

    @Test(.enabled(if: InstalledShell.path("fish") != nil, "fish is not installed: its script was not checked"))
    func fishScript_isValidFish() async throws {
        try await checkSyntax(.fish)
    }

    @Test func descriptions_areQuotedForTheShell() {
        #expect(ShellQuoting.singleQuoted("it's") == #"'it'\''s'"#)
        #expect(ShellQuoting.fishQuoted(#"it's a \ "#) == #"'it\'s a \\ '"#)
    }
}
