import Foundation
import Testing

@testable import StartupCLI

/// The README's "Shell completion" block, run as written with bash in a fresh home folder: each
/// shell's line installs that shell's script.
@Suite struct ReadmeShellCompletionTests {
    /// The README's fenced block that starts with `firstLine`, without its fences.
    static func block(startingWith firstLine: String) throws -> String {
        let readme = try String(contentsOf: ReadmeSessionTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: firstLine), "the README has no block starting \(firstLine)")
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix("```") })
        return lines[start..<end].joined(separator: "\n")
    }

    @Test(.enabled(if: InstalledShell.path("bash") != nil, "bash is not installed: the README's install lines were not run"))
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
