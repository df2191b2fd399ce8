import Foundation
import StartupTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The dev-stack sessions of the CLI guide (`docs/CLI.md`, read with the README through
/// `ReadmeSessionTests.sessionBlocks()`), replayed with the built binary on the repository's
/// `examples/dev-stack/commands.json` (run from the repository's root, as the guide shows, with
/// `--no-report` added so the repository stays clean): the Ctrl-C session gets its SIGINT once the
/// services are held, and each must print what the guide shows, measured times masked and lines
/// in any order (services start and stop as the machine allows).
@Suite(.serialized, .timeLimit(.minutes(2))) struct ReadmeDevStackTests {
    static let command = "$ startup run -f examples/dev-stack/commands.json"

    /// `line`'s words as a shell splits them, with single quotes.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var inWord = false
        for character in line {
            if character == "'" {
                quoted.toggle()
                inWord = true
            } else if character == " ", !quoted {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    private func block(startingWith prefix: String) throws -> (arguments: [String], shown: [String]) {
        let blocks = try ReadmeSessionTests.sessionBlocks()
        let block = try #require(
            blocks[prefix] ?? blocks.first { $0.key.hasPrefix(prefix) }?.value,
            "neither the README nor docs/CLI.md has a block starting \(prefix)")
        var arguments = Array(Self.words(String(block[0].dropFirst(2))).dropFirst())
        arguments.insert("--no-report", at: arguments.firstIndex(of: "--") ?? arguments.endIndex)
        return (arguments, Array(block.dropFirst()))
    }

    private func expectSameLines(_ printed: String, _ shown: [String]) {
        let printed = printed.split(separator: "\n").map(String.init).filter { !$0.isEmpty }.map(ReadmeSessionTests.masked).sorted()
        let shown = shown.filter { !$0.isEmpty && $0 != "^C" }.map(ReadmeSessionTests.masked).sorted()
        #expect(printed == shown)
    }

    @Test func theCISession_runsTheCommandBetweenStartUpAndShutdown() async throws {
        let (arguments, shown) = try block(startingWith: Self.command + " --output quiet --")
        let result = try await StartupBinary.run(arguments, in: RepositoryFiles.root.path)
        #expect(result.status == 0, "\(result.error)")
        expectSameLines(result.output + result.error, shown)
    }

    @Test func theCrashSession_restartsTheWorker_andNothingElse() async throws {
        let (arguments, shown) = try block(startingWith: Self.command + " --grace-period 5s")
        let running = try StartupBinary.startWithPipedOutput(arguments, in: RepositoryFiles.root.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let held = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        try #require(held.contains("Services running"), "the stack was not held: \(held)")
        // As `curl 'http://127.0.0.1:18081/exit?code=1'` does in docs/CLI.md.
        #expect(TestServer.get("/exit?code=1", port: 18081) != nil)
        let restarting = await LineReader.readLines(from: running.output, through: "restarting in", closes: false)
        let back = await LineReader.readLines(from: running.output, through: "worker polling queue jobs", closes: false)
        kill(running.process.processIdentifier, SIGINT)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        let errors = (try? String(contentsOfFile: running.errorFile, encoding: .utf8)) ?? ""
        expectSameLines(held + restarting + back + rest + errors, shown)
    }

    @Test func theReadmesManifestFragments_areTheExamplesOwnLines() throws {
        let readme = try ReadmeSessionTests.documentsText()
        let example = try RepositoryFiles.text("examples/dev-stack/commands.json")
        let exampleLines = Set(example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let fragments = readme.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
            .filter { $0.hasPrefix("{ \"id\": ") }
        #expect(fragments.count >= 2)
        for line in fragments.joined().split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            #expect(exampleLines.contains(trimmed) || exampleLines.contains(trimmed + ","), "not in the example: \(line)")
        }
    }

    @Test func theCtrlCSession_stopsTheStackInReverseOrder() async throws {
        let (arguments, shown) = try block(startingWith: Self.command)
        let running = try StartupBinary.startWithPipedOutput(arguments, in: RepositoryFiles.root.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let held = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        try #require(held.contains("Services running"), "the stack was not held: \(held)")
        kill(running.process.processIdentifier, SIGINT)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        let errors = (try? String(contentsOfFile: running.errorFile, encoding: .utf8)) ?? ""
        expectSameLines(held + rest + errors, shown)
    }
    /// The README's session on a running stack, from a second terminal: `ps`, `restart api`, an edit of the schema
    /// that reloads `migrate` and what follows it, and `down`; then what the run's own terminal showed. The schema
    /// file is put back afterwards.
    @Test
    func theSessionOnARunningStack_listsRestartsReloadsAndStopsIt() async throws {
        let root = RepositoryFiles.root.path
        let blocks = try ReadmeSessionTests.sessionBlocks()
        let block = try #require(blocks["$ startup ps -f examples/dev-stack/commands.json"], "the README has no such session")
        var steps: [(command: String, shown: [String])] = []
        for line in block {
            if line.hasPrefix("$ ") { steps.append((String(line.dropFirst(2)), [])) } else { steps[steps.count - 1].shown.append(line) }
        }
        let schema = root + "/examples/dev-stack/db/schema.sql"
        let original = try String(contentsOfFile: schema, encoding: .utf8)
        defer { try? original.write(toFile: schema, atomically: true, encoding: .utf8) }

        let running = try StartupBinary.startWithPipedOutput(["run", "-f", "examples/dev-stack/commands.json", "--no-report"], in: root)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let held = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        try #require(held.contains("Services running"), "the stack was not held: \(held)")
        var shownByTheRun = ""
        for step in steps {
            let words = Self.words(step.command)
            if words[0] == "echo" {
                let edit = try await InstalledShell.run("sh", step.command, in: root)
                #expect(edit.status == 0)
                shownByTheRun += await LineReader.readLines(from: running.output, through: "reload 1 (", closes: false)
                continue
            }
            let result = try await StartupBinary.run(Array(words.dropFirst()), in: root)
            #expect(result.status == 0, "\(step.command): \(result.error)")
            if words[1] == "ps" {
                // Times, pids and the last checks change from run to run: the ids, kinds and states do not.
                let columns = { (lines: [String]) in
                    lines.filter { !$0.isEmpty }.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
                }
                #expect(columns(result.output.split(separator: "\n").map(String.init)) == columns(step.shown))
            } else {
                expectSameLines(result.output, step.shown)
            }
            if words[1] == "restart" {
                // Its line, whether the restart succeeded (⟳) or not (✗).
                shownByTheRun += await LineReader.readLines(from: running.output, through: "restart api", closes: false)
            }
        }
        _ = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 0, "a stop asked for is not an interrupt")
        let readme = try RepositoryFiles.text("README.md")
        let runBlock = try #require(readme.components(separatedBy: "```\n⟳ restart").dropFirst().first.map { "⟳ restart" + $0 })
        let shown = runBlock.components(separatedBy: "```")[0].split(separator: "\n").map(String.init)
        expectSameLines(shownByTheRun.split(separator: "\n").filter { $0.hasPrefix("⟳") }.joined(separator: "\n"), shown)
    }
}
