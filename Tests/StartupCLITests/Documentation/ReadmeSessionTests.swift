import Foundation
import StartupTestSupport
import Testing

/// The terminal sessions of `startup plan` and `startup run` in the README and the CLI guide
/// (`docs/CLI.md`), replayed with the built binary in a folder holding the sample `commands.json`:
/// `$ cat FILE` writes the lines after it, and each `$ startup ...` must print what the document
/// shows (for `run`, with measured times masked and lines compared in any order, since they finish
/// as the machine allows).
@Suite struct ReadmeSessionTests {

    /// The first lines of the sessions replayed (the `--trace` run draws bars that move with the
    /// machine's timing, and the broken manifest is not in the repository).
    static let sessions = [
        "$ startup plan", "$ startup plan auth-session", "$ startup run auth-session", "$ startup run serch-index",
        "$ cat lazy.json", "$ cat after.json", "$ cat .env", "$ cat watch.json",
    ]

    /// The documents whose blocks the tests replay: the README and the CLI guide it links to.
    static let documents = ["README.md", "docs/CLI.md"]

    /// The text of every document in `documents`, in that order, joined by a blank line.
    static func documentsText() throws -> String {
        try documents.map { try RepositoryFiles.text($0) }
            .joined(separator: "\n")
    }

    /// The documents' fenced blocks whose first line starts a shell session, by that line.
    static func sessionBlocks() throws -> [String: [String]] {
        var blocks: [String: [String]] = [:]
        for document in documents {
            let text = try RepositoryFiles.text(document)
            var current: [String]?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("```") {
                    if let block = current, let first = block.first, first.hasPrefix("$ ") { blocks[first] = block }
                    current = current == nil ? [] : nil
                } else {
                    current?.append(line)
                }
            }
        }
        return blocks
    }

    /// Measured times and parallelism masked, runs of spaces squeezed.
    static func masked(_ line: String) -> String {
        line.replacing(/\d+(\.\d+)?(ms|s|x)\b/, with: "#").replacing(/\ +/, with: " ")
    }

    @Test(arguments: sessions)
    func readmeSession_printsWhatTheDocumentShows(session: String) async throws {
        let block = try #require(try Self.sessionBlocks()[session], "neither the README nor docs/CLI.md has a block starting \(session)")
        let folder = try TemporaryDirectory()
        try RepositoryFiles.text("commands.json").write(
            toFile: folder.file("commands.json"), atomically: true, encoding: .utf8)
        var index = 0
        while index < block.count {
            let command = block[index]
            index += 1
            let shown = Array(block[index...].prefix { !$0.hasPrefix("$ ") })
            index += shown.count
            let words = command.dropFirst(2).split(separator: " ").map(String.init)
            if words.first == "cat", words.count == 2 {
                try folder.write(words[1], shown.joined(separator: "\n") + "\n")
                continue
            }
            try #require(words.first == "startup", "not a startup command: \(command)")
            let result = try await StartupBinary.run(Array(words.dropFirst()), in: folder.path)
            let printed = (result.output + result.error).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(printed.last == "")
            if words.count > 1, words[1] == "run" {
                #expect(printed.dropLast().map(Self.masked).sorted() == shown.map(Self.masked).sorted(), "\(command)")
            } else {
                #expect(Array(printed.dropLast()) == shown, "\(command)")
            }
        }
    }
}
