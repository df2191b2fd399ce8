import Foundation
import Testing

@testable import StartupCLI

/// The "Shell completion" block of the CLI guide (`docs/CLI.md`, read with the README), run as
/// written with bash in a fresh home folder: each shell's line installs that shell's script.
@Suite struct ReadmeShellCompletionTests {
    /// The documents' fenced block that starts with `firstLine`, without its fences.
    static func block(startingWith firstLine: String) throws -> String {
        let text = try ReadmeSessionTests.documentsText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(
            lines.firstIndex(of: firstLine), "neither the README nor docs/CLI.md has a block starting \(firstLine)")
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix("```") })
        return lines[start..<end].joined(separator: "\n")
    }

    @Test(.enabled(if: InstalledShell.path("bash") != nil, "bash is not installed: the documented install lines were not run"))
    func readmeInstallLines_installEachShellsScript() async throws {
        let block = try Self.block(startingWith: "# bash: in ~/.bashrc")
        let home = try TemporaryDirectory()
        let result = try await InstalledShell.run("bash", block + "\ncomplete -p startup", in: home.path, home: home.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error == "")
        #expect(result.output == "complete -F _startup startup\n")
        #expect(try String(contentsOfFile: home.file(".zfunc/_startup"), encoding: .utf8) == CompletionShell.zsh.script)
        #expect(
            try String(contentsOfFile: home.file(".config/fish/completions/startup.fish"), encoding: .utf8) == CompletionShell.fish.script)
    }
}
