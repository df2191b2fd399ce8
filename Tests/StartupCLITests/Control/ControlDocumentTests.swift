import Foundation
import StartupKit
import StartupTestSupport
import Testing

@testable import StartupCLI

/// The CLI guide's control blocks (`docs/CLI.md`), replayed against a faked run whose rows and kept output are
/// the ones the blocks show: the protocol exchange line for line through a raw socket, and the `startup ps`
/// session through the client.
@Suite struct ControlDocumentTests {
    /// The guide's fenced block whose first line starts with `prefix`, without its fences.
    static func block(startingWith prefix: String) throws -> [String] {
        let lines = try RepositoryFiles.text("docs/CLI.md").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let fence = try #require(lines.indices.first { lines[$0].hasPrefix("```") && lines[$0 + 1].hasPrefix(prefix) })
        let end = try #require(lines[(fence + 1)...].firstIndex { $0.hasPrefix("```") })
        return Array(lines[(fence + 1)..<end])
    }

    /// A run of `commands.json` in a fresh folder, faked with the rows and log lines the exchange shows.
    static func run() async throws -> (TemporaryDirectory, ControlServer, FakeControlTarget) {
        let answers = try block(startingWith: "> ").filter { $0.hasPrefix("< ") }.compactMap {
            ControlAnswer.parse(Array($0.dropFirst(2).utf8))
        }
        let target = FakeControlTarget(rows: answers.compactMap { if case .row(let row) = $0 { row } else { nil } })
        target.state.withLock { $0.kept = answers.compactMap { if case .log(let line) = $0 { line } else { nil } } }
        let folder = try TemporaryDirectory()
        let path = ControlSocketPath.forManifest(folder.file("commands.json"), environment: [:])
        let server = try await ControlServer.start(at: path, manifest: "commands.json", target: target)
        return (folder, server, target)
    }

    @Test func theProtocolExchange_isWhatTheRunAnswers() async throws {
        let exchange = try Self.block(startingWith: "> ")
        let (folder, server, target) = try await Self.run()
        defer { withExtendedLifetime(folder) {} }
        defer { server.close() }
        #expect(target.state.withLock { $0.rows.count } == 3)
        var index = 0
        while index < exchange.count {
            let request = exchange[index]
            try #require(request.hasPrefix("> "), "a request line: \(request)")
            index += 1
            let expected = exchange[index...].prefix { $0.hasPrefix("< ") }.map { String($0.dropFirst(2)) }
            index += expected.count
            let path = server.path.socket
            let answered = await DedicatedThread.result { () -> [String] in
                guard case .success(let descriptor) = UnixSocket.connect(to: path) else { return [] }
                defer { close(descriptor) }
                _ = UnixSocket.sendAll(descriptor, Array(request.dropFirst(2).utf8) + [10])
                var reader = SocketLineReader(descriptor: descriptor, limit: 1 << 20)
                var lines: [String] = []
                while case .line(let line) = reader.next(deadline: SocketLineReader.now() + 60_000_000_000) {
                    lines.append(String(decoding: line, as: UTF8.self))
                }
                return lines
            }
            #expect(answered == expected, "\(request)")
        }
        #expect(target.calls == [.logs(["api"], lines: 1)])
    }

    @Test func thePsSession_printsWhatTheGuideShows() async throws {
        let session = try Self.block(startingWith: "$ startup ps")
        let (folder, server, _) = try await Self.run()
        defer { server.close() }
        var index = 0
        while index < session.count {
            let words = session[index].dropFirst(2).split(separator: " ").map(String.init)
            index += 1
            let shown = Array(session[index...].prefix { !$0.hasPrefix("$ ") })
            index += shown.count
            try #require(words.first == "startup")
            let console = Console.capturing()
            _ = await StartupTool.main(
                Array(words.dropFirst()) + ["--file", folder.file("commands.json")], environment: [:], console: console)
            #expect(console.capturedOutput + console.capturedError == shown.map { $0 + "\n" }.joined(), "\(words)")
        }
    }
}
