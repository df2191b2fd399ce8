import Foundation
import StartupKit
import Testing

@testable import StartupCLI

/// The client subcommands' command lines, their help, and the completion scripts' way to the run's ids.
@Suite struct ControlArgumentsTests {
    static let parsed: [([String], ControlOptions)] = [
        (["ps"], ControlOptions(request: .ps)),
        (["ps", "--format", "json", "-f", "stack.json"], ControlOptions(file: "stack.json", format: .json, request: .ps)),
        (["restart", "api"], ControlOptions(request: .restart(["api"], cascade: false))),
        (["restart", "--cascade", "db", "api"], ControlOptions(request: .restart(["db", "api"], cascade: true))),
        (["stop", "db", "--cascade", "--file=x.json"], ControlOptions(file: "x.json", request: .stop(["db"], cascade: true))),
        (["start", "seed"], ControlOptions(request: .start(["seed"]))),
        (["logs"], ControlOptions(request: .logs([], lines: nil, follow: false))),
        (["logs", "-f", "api", "-n", "20"], ControlOptions(request: .logs(["api"], lines: 20, follow: true))),
        (
            ["logs", "--follow", "--lines=5", "--file", "a.json", "--", "-odd"],
            ControlOptions(file: "a.json", request: .logs(["-odd"], lines: 5, follow: true))
        ),
        (["logs", "--format", "json"], ControlOptions(format: .json, request: .logs([], lines: nil, follow: false))),
        (["down", "-f", "-"], ControlOptions(file: "-", request: .down)),
        (["events"], ControlOptions(request: .events)),
    ]

    @Test(arguments: parsed)
    func aClientCommandLine_parsesIntoItsRequest(arguments: [String], options: ControlOptions) throws {
        #expect(try CommandLineParser.parse(arguments) == .control(options))
    }

    static let refused: [([String], String)] = [
        (["restart"], "restart needs the ids of the commands to restart, as in: startup restart api"),
        (["stop", "--cascade"], "stop needs the ids of the commands to stop, as in: startup stop api"),
        (["start"], "start needs the ids of the commands to start, as in: startup start api"),
        (["ps", "api"], "unexpected argument \"api\"; ps takes only options (see startup ps --help)"),
        (["down", "--cascade"], "unknown option --cascade"),
        (["events", "--format", "json"], "unknown option --format"),
        (["restart", "--cascde", "api"], "unknown option --cascde (did you mean --cascade?)"),
        (["logs", "-n", "0"], "-n needs a whole number from 1 to 1000000, not \"0\""),
        (["logs", "--file"], "--file needs a value"),
        (["restart", ""], "\"\" is not a command id"),
    ]

    @Test(arguments: refused)
    func aWrongClientCommandLine_isAUsageError(arguments: [String], message: String) {
        do {
            let parsed = try CommandLineParser.parse(arguments)
            Issue.record("accepted \(arguments): \(parsed)")
        } catch {
            #expect(error.message == message)
            #expect(error.subcommand?.rawValue == arguments[0])
        }
    }

    @Test(arguments: Invocation.Subcommand.control)
    func eachClientCommand_hasItsHelp_namingTheRunAndExit69(subcommand: Invocation.Subcommand) async {
        let console = Console.capturing()
        #expect(await StartupTool.main([subcommand.rawValue, "--help"], environment: [:], console: console) == .success)
        let help = console.capturedOutput
        #expect(help.contains("USAGE: startup \(subcommand.rawValue) [--file <path>]"))
        #expect(help.contains("exit 69 when no run of it is up"))
        #expect(help.contains("  69   no run of the manifest is up"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= HelpColumns.width })
    }

    @Test func theGeneralHelp_listsTheClientCommands() async {
        let console = Console.capturing()
        _ = await StartupTool.main(["--help"], environment: [:], console: console)
        for subcommand in Invocation.Subcommand.control {
            #expect(console.capturedOutput.contains("\n  \(subcommand.rawValue.padded(to: 7))  "), "\(subcommand)")
        }
    }

    /// The fake run answers from this test process's cooperative pool, which the other suites on a 2-core machine can
    /// keep busy for longer than a key press waits (5 s): the lookup waits longer here.
    @Test
    func theRunsIDs_areListedForTheCompletions_elseTheManifests() async throws {
        let fixture = try await ControlFixture(
            target: FakeControlTarget(rows: [ControlRow(id: "only-in-the-run", kind: .service, state: .ready)]))
        try #"{"version": 1, "commands": [{"id": "a", "run": "true"}, {"id": "b", "run": "true"}]}"#.write(
            toFile: fixture.manifest, atomically: true, encoding: .utf8)
        #expect(try CommandLineParser.parse(["completions", "--ids", "--run", "-f", "x.json"]) == .runIDs(manifest: "x.json"))
        let console = Console.capturing()
        await CompletionsCommand.printRunIDs(ofManifest: fixture.manifest, console: console, environment: [:], waitingAtMost: .seconds(120))
        #expect(console.capturedOutput == "only-in-the-run\n")
        fixture.server.close()
        let after = Console.capturing()
        _ = await StartupTool.main(["completions", "--ids", "--run", "-f", fixture.manifest], environment: [:], console: after)
        #expect(after.capturedOutput == "a\nb\n")
    }

    @Test func theCompletionScripts_askTheRunForTheIDsOfTheClientCommands() throws {
        #expect(CompletionShell.bash.script.contains(#"_startup_ids "$cur" run ;;"#))
        #expect(CompletionShell.bash.script.contains(#"_startup_ids "$cur" logs ;;"#))
        #expect(CompletionShell.bash.script.contains("command startup completions --ids $run -f"))
        #expect(CompletionShell.zsh.script.contains("'*:command id:_startup_ids run'"))
        #expect(CompletionShell.fish.script.contains("-a '(__startup_ids logs)'"))
    }
}
