import StartupTestSupport
import Testing

@testable import StartupCLI

/// `ExitCode.table` is the one table of exit codes: `--help` prints it, the README lists exactly
/// its rows, and docs/CLI.md has no table of its own but links to the README's.
@Suite struct ExitCodeTableTests {
    /// The rows of the table under `## Exit codes` in `markdown`, as `(code, meaning)`.
    private func documentedRows(_ markdown: String) -> [(code: String, meaning: String)] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(of: "## Exit codes") else { return [] }
        return lines[(heading + 1)...].prefix { !$0.hasPrefix("## ") }
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| code |") && !$0.hasPrefix("| --- |") }
            .map { line in
                let cells = line.dropFirst(2).dropLast(2)
                let separator = cells.range(of: " | ")!
                return (String(cells[..<separator.lowerBound]), String(cells[separator.upperBound...]))
            }
    }

    @Test func readme_listsExactlyTheRowsOfTheTable() throws {
        let documented = documentedRows(try RepositoryFiles.text("README.md"))
        let expected = ExitCode.table.map { "| \($0.code) | \($0.meaning) |" }
        #expect(
            documented.map { "| \($0.code) | \($0.meaning) |" } == expected,
            "README.md's exit codes differ from ExitCode.table; its rows should read:\n\(expected.joined(separator: "\n"))")
    }

    @Test func cliGuide_linksToTheReadmesTable_andHasNoneOfItsOwn() throws {
        let guide = try RepositoryFiles.text("docs/CLI.md")
        #expect(guide.contains("(../README.md#exit-codes)"))
        #expect(documentedRows(guide).isEmpty)
        #expect(!guide.contains("| code | meaning |"))
    }

    @Test func table_hasEachCodeOnce_inAscendingOrder_andTheEnvFileCodes() {
        let numbers = ExitCode.table.compactMap { Int32($0.code) }
        #expect(numbers == numbers.sorted())
        #expect(Set(ExitCode.table.map(\.code)).count == ExitCode.table.count)
        #expect(Set(ExitCode.table.map(\.name)).count == ExitCode.table.count)
        let all: [ExitCode] = [
            .success, .failure, .usage, .invalidManifest, .manifestUnreadable, .unavailable, .outOfResources,
            .cannotCreate, .outputFailed, .noPermission, .interrupted, .outputClosed,
        ]
        #expect(numbers == all.map(\.rawValue))
        for code in [ExitCode.invalidManifest, .manifestUnreadable] {
            let row = ExitCode.table.first { $0.code == "\(code.rawValue)" }
            #expect(row?.meaning.contains("env file") == true)
        }
    }

    @Test func help_printsEveryRow_withoutMarkdown() {
        let help = ExitCode.helpSection
        #expect(help.hasPrefix("EXIT CODES:\n"))
        #expect(!help.contains("`"))
        for row in ExitCode.table {
            #expect(help.contains("\n  \(row.code) "), "no row for \(row.code)")
        }
        #expect(HelpText.text(for: nil).hasSuffix(help))
    }
}
