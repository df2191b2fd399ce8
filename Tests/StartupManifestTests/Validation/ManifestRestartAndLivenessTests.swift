import Foundation
import StartupKit
import StartupTestSupport
import Testing

@testable import StartupManifest

/// `"restart"` and `"alive"`: each default, each good value, and each bad value with its message and where it is.
@Suite struct ManifestRestartAndLivenessTests {
    /// The command `{"id": "api", "run": "serve", "ready": {"tcp": "127.0.0.1:8080"}, MEMBERS}`, or, without `ready`,
    /// a plain command.
    private func json(_ members: String, service: Bool = true) -> String {
        let ready = service ? #""ready": {"tcp": "127.0.0.1:8080"}, "# : ""
        return #"{"version": 1, "commands": [{"id": "api", "run": "serve", \#(ready)\#(members)}]}"#
    }

    private func command(_ members: String) throws -> ManifestCommand {
        try Manifest.decode(Array(json(members).utf8)).commands[0]
    }

    private func problems(_ members: String, service: Bool = true) -> [ManifestProblem] {
        do {
            _ = try Manifest.decode(Array(json(members, service: service).utf8))
            return []
        } catch {
            return error.problems
        }
    }

    /// Expects exactly one problem in the manifest of `members`, written with a `^` where the problem is: `message`
    /// (after its path), on line 1 at the column of the `^`.
    private func expectOneProblem(_ members: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (written, column) = marked(members)
        let found = problems(written)
        #expect(found.map(\.description) == [message], sourceLocation: sourceLocation)
        #expect(found.map(\.line) == [1], sourceLocation: sourceLocation)
        #expect(found.map(\.column) == [column], sourceLocation: sourceLocation)
    }

    /// `members` without its `^`, and the column, counting from 1, of what followed the `^` in the manifest of
    /// `members`.
    private func marked(_ members: String, service: Bool = true) -> (members: String, column: Int?) {
        let written = members.replacing("^", with: "")
        let marker = "\u{0}"
        let text = json(members.replacing("^", with: marker), service: service)
        return (
            written, text.utf8.firstRange(of: marker.utf8).map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) + 1 }
        )
    }

    // MARK: - restart

    @Test func restart_defaults_onFailure_threeTimes_afterOneSecond() throws {
        let command = try command(#""restart": {}"#)
        #expect(command.restart == RestartPolicy(on: .failure, limit: 3, delay: .seconds(1)))
        #expect(command.options(defaults: ManifestDefaults()).restart == command.restart)
        #expect(try self.command(#""retries": 1"#).restart == nil)
        #expect(try self.command(#""retries": 1"#).options(defaults: ManifestDefaults()).restart == .never)
    }

    @Test(arguments: [
        (#"{"on": "exit", "limit": 5, "delay": "500ms"}"#, RestartPolicy(on: .exit, limit: 5, delay: .milliseconds(500))),
        (#"{"on": "failure", "limit": 0}"#, RestartPolicy(on: .failure, limit: 0)),
        (#"{"limit": 1000, "delay": "0s"}"#, RestartPolicy(limit: 1_000, delay: .zero)),
        (#"{"delay": "60m"}"#, RestartPolicy(delay: .seconds(3_600))),
    ])
    func restart_goodValues(written: String, expected: RestartPolicy) throws {
        #expect(try command(#""restart": \#(written)"#).restart == expected)
    }

    @Test(arguments: [
        (#"^"wrong""#, #"commands[0] ("api").restart: expected a restart policy as an object, found a string"#),
        (#"^[]"#, #"commands[0] ("api").restart: expected a restart policy as an object, found an array"#),
        (
            #"{"on": ^"always"}"#,
            #"commands[0] ("api").restart.on: expected "failure" (a non-zero exit or a signal) or "exit" (any end), found "always""#
        ),
        (#"{"on": ^1}"#, #"commands[0] ("api").restart.on: expected a string, found a number"#),
        (#"{"limit": ^-1}"#, #"commands[0] ("api").restart.limit: a restart limit must be from 0 to 1000, found -1"#),
        (#"{"limit": ^1001}"#, #"commands[0] ("api").restart.limit: a restart limit must be from 0 to 1000, found 1001"#),
        (#"{"limit": ^2.5}"#, #"commands[0] ("api").restart.limit: expected a whole number, found the number 2.5"#),
        (#"{"limit": ^"3"}"#, #"commands[0] ("api").restart.limit: expected a whole number, found "3""#),
        (
            #"{"delay": ^"abc"}"#,
            #"commands[0] ("api").restart.delay: invalid duration "abc": write a non-negative number with a unit, ms, s, m or h, such as "250ms" or "1.5s""#
        ),
        (#"{"delay": ^"61m"}"#, #"commands[0] ("api").restart.delay: a restart delay must be from 0s to 60m, found "61m""#),
        (#"{"delay": ^"2h"}"#, #"commands[0] ("api").restart.delay: a restart delay must be from 0s to 60m, found "2h""#),
        (
            #"{"delay": ^"2d"}"#,
            #"commands[0] ("api").restart.delay: invalid duration "2d": write a non-negative number with a unit, ms, s, m or h, such as "250ms" or "1.5s""#
        ),
        (
            #"{"delay": ^500}"#,
            #"commands[0] ("api").restart.delay: a duration needs a unit: found the bare number 500; write "500ms" or "500s""#
        ),
        (
            #"{"on": "exit", ^"limt": 3}"#,
            #"commands[0] ("api").restart.limt: unknown key "limt" (did you mean "limit"?); allowed keys: on, limit, delay"#
        ),
    ])
    func restart_badValues_sayWhatIsWrong(written: String, message: String) {
        expectOneProblem(#""restart": \#(written)"#, message)
    }

    @Test func restartAndAlive_areForServicesOnly_reportedAtTheirKeys() {
        let (restartMembers, restartColumn) = marked(#"^"restart": {}"#, service: false)
        let (aliveMembers, aliveColumn) = marked(#"^"alive": {"tcp": "127.0.0.1:8080"}"#, service: false)
        let found = problems(restartMembers + ", " + aliveMembers, service: false)
        #expect(
            found.map(\.description) == [
                #"commands[0] ("api").restart: "restart" is for services only (a command with "ready"); give the command a readiness probe or leave "restart" out"#,
                #"commands[0] ("api").alive: "alive" is for services only (a command with "ready"); give the command a readiness probe or leave "alive" out"#,
            ])
        #expect(found.map(\.column) == [restartColumn, aliveColumn.map { $0 + restartMembers.utf8.count + 2 }])
        #expect(found.allSatisfy { $0.line == 1 })
    }

    @Test func restartAndAlive_onAPlainCommand_alsoReportWhatIsWrongInside() {
        let found = problems(#""restart": {"limit": -1}, "alive": {"log": "up", "every": "1s"}"#, service: false).map(\.description)
        #expect(
            found == [
                #"commands[0] ("api").restart: "restart" is for services only (a command with "ready"); give the command a readiness probe or leave "restart" out"#,
                #"commands[0] ("api").restart.limit: a restart limit must be from 0 to 1000, found -1"#,
                #"commands[0] ("api").alive: "alive" is for services only (a command with "ready"); give the command a readiness probe or leave "alive" out"#,
                #"commands[0] ("api").alive.log: a liveness check takes "exec", "tcp" or "http": a line of output cannot tell that a running service is still alive"#,
                #"commands[0] ("api").alive.every: unknown key "every"; allowed keys: exec, tcp, http, interval, failures"#,
            ])
    }

    @Test(arguments: ["restart", "alive"])
    func restartAndAlive_inDefaults_areUnknownKeys(key: String) {
        let json = #"{"version": 1, "defaults": {"\#(key)": {}}, "commands": [{"id": "api", "run": "serve"}]}"#
        do {
            _ = try Manifest.decode(Array(json.utf8))
            Issue.record("\(key) in defaults should be refused")
        } catch {
            #expect(
                error.problems.map(\.description) == [
                    #"defaults.\#(key): unknown key "\#(key)"; allowed keys: timeout, retries, env, envFile, cwd"#
                ])
            #expect(error.problems.first?.column == 29)
        }
    }

    // MARK: - alive

    @Test(arguments: [
        (#"{"tcp": "127.0.0.1:8080"}"#, ManifestLiveness(probe: .tcp(host: "127.0.0.1", port: 8_080))),
        (
            #"{"http": "http://127.0.0.1:8080/health", "interval": "2s", "failures": 1}"#,
            ManifestLiveness(probe: .http(host: "127.0.0.1", port: 8_080, path: "/health"), interval: .seconds(2), failures: 1)
        ),
        (#"{"exec": "pgrep serve", "failures": 1000}"#, ManifestLiveness(probe: .exec("pgrep serve"), failures: 1_000)),
        (
            #"{"tcp": "127.0.0.1:8080", "interval": "100ms"}"#,
            ManifestLiveness(probe: .tcp(host: "127.0.0.1", port: 8_080), interval: .milliseconds(100))
        ),
    ])
    func alive_goodValues(written: String, expected: ManifestLiveness) throws {
        #expect(try command(#""alive": \#(written)"#).alive == expected)
    }

    @Test func alive_defaults_everyFiveSeconds_threeFailures_eachCheckAtMostTenSeconds() throws {
        let alive = try #require(try command(#""alive": {"tcp": "127.0.0.1:8080"}"#).alive)
        #expect(alive.interval == .seconds(5) && alive.failures == 3)
        #expect(alive.checkLimit == .seconds(5))
        #expect(ManifestLiveness(probe: alive.probe, interval: .seconds(60)).checkLimit == .seconds(10))
    }

    @Test(arguments: [
        (#"^3"#, #"commands[0] ("api").alive: expected a liveness check as an object, found a number"#),
        (
            #"{^"log": "up"}"#,
            #"commands[0] ("api").alive.log: a liveness check takes "exec", "tcp" or "http": a line of output cannot tell that a running service is still alive"#
        ),
        (
            #"{^"after": "1s"}"#,
            #"commands[0] ("api").alive.after: a liveness check takes "exec", "tcp" or "http": a delay cannot tell that a running service is still alive"#
        ),
        (
            #"{"tcp": "127.0.0.1:1", ^"log": "up"}"#,
            #"commands[0] ("api").alive.log: a liveness check takes "exec", "tcp" or "http": a line of output cannot tell that a running service is still alive"#
        ),
        (#"^{}"#, #"commands[0] ("api").alive: missing a check; give exactly one of "exec", "tcp" or "http""#),
        (
            #"{"tcp": "127.0.0.1:1", ^"http": "http://127.0.0.1/"}"#,
            #"commands[0] ("api").alive: more than one check ("tcp", "http"); give exactly one of "exec", "tcp" or "http""#
        ),
        (#"{"tcp": "127.0.0.1:1", "failures": ^0}"#, #"commands[0] ("api").alive.failures: failures must be from 1 to 1000, found 0"#),
        (
            #"{"tcp": "127.0.0.1:1", "failures": ^1001}"#,
            #"commands[0] ("api").alive.failures: failures must be from 1 to 1000, found 1001"#
        ),
        (
            #"{"tcp": "127.0.0.1:1", "failures": ^2.5}"#,
            #"commands[0] ("api").alive.failures: expected a whole number, found the number 2.5"#
        ),
        (#"{"tcp": "127.0.0.1:1", "failures": ^"3"}"#, #"commands[0] ("api").alive.failures: expected a whole number, found "3""#),
        (
            #"{"tcp": "127.0.0.1:1", "interval": ^"0ms"}"#,
            #"commands[0] ("api").alive.interval: a liveness check's interval must be from 100ms to 60m, found "0ms""#
        ),
        (
            #"{"tcp": "127.0.0.1:1", "interval": ^"99ms"}"#,
            #"commands[0] ("api").alive.interval: a liveness check's interval must be from 100ms to 60m, found "99ms""#
        ),
        (
            #"{"tcp": "127.0.0.1:1", "interval": ^"61m"}"#,
            #"commands[0] ("api").alive.interval: a liveness check's interval must be from 100ms to 60m, found "61m""#
        ),
        (
            #"{"tcp": ^"127.0.0.1"}"#,
            #"commands[0] ("api").alive.tcp: missing port in "127.0.0.1"; write "host:port", such as "127.0.0.1:5433" or "[::1]:5433""#
        ),
        (
            #"{"http": ^"https://127.0.0.1/"}"#,
            #"commands[0] ("api").alive.http: plain HTTP only: "https://127.0.0.1/" needs TLS; probe its port with "tcp" instead"#
        ),
        (
            #"{"exec": ^""}"#,
            #"commands[0] ("api").alive.exec: empty exec line; give a shell line that exits 0 while the service is alive"#
        ),
        (
            #"{"tcp": "127.0.0.1:1", ^"every": "1s"}"#,
            #"commands[0] ("api").alive.every: unknown key "every"; allowed keys: exec, tcp, http, interval, failures"#
        ),
    ])
    func alive_badValues_sayWhatIsWrong(written: String, message: String) {
        expectOneProblem(#""alive": \#(written)"#, message)
    }

    @Test func alive_withLogAndABadMember_reportsBoth_butNoMissingCheck() {
        let found = problems(#""alive": {"after": "1s", "failures": 0}"#).map(\.description)
        #expect(
            found == [
                #"commands[0] ("api").alive.after: a liveness check takes "exec", "tcp" or "http": a delay cannot tell that a running service is still alive"#,
                #"commands[0] ("api").alive.failures: failures must be from 1 to 1000, found 0"#,
            ])
    }

    @Test func alive_summary_forThePlan() {
        #expect(
            ManifestLiveness(probe: .http(host: "127.0.0.1", port: 8_080, path: "/health")).summary
                == "http http://127.0.0.1:8080/health every 5s, 3 failures in a row stop it")
        #expect(ManifestLiveness(probe: .exec("pgrep\u{1B}"), failures: 1).summary == #"exec "pgrep\u001B" every 5s, 1 failure stops it"#)
    }

    /// The JSON blocks of the DocC article "The manifest": whole manifests, or one command, which is decoded inside one.
    @Test func theArticlesJSONBlocks_decode() throws {
        let text = try RepositoryFiles.text("Sources/StartupManifest/StartupManifest.docc/TheManifest.md")
        let blocks = text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 3)
        for block in blocks {
            let json = block.hasPrefix("{ \"id\"") ? #"{"version": 1, "commands": [\#(block)]}"# : block
            #expect(throws: Never.self, "\(block)") { try Manifest.decode(Array(json.utf8)) }
        }
        let worker = try Manifest.decode(Array(#"{"version": 1, "commands": [\#(blocks[2])]}"#.utf8)).commands[0]
        #expect(worker.restart == RestartPolicy(limit: 5, delay: .milliseconds(500)))
        #expect(worker.alive?.failures == 3)
    }
}
