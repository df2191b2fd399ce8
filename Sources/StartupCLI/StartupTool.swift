import StartupKit

/// The `startup` command-line tool, callable in-process: parses the arguments, runs the
/// subcommand, and returns the exit code.
package enum StartupTool {
    /// Runs `startup` with `arguments` (without the program name).
    ///
    /// - Parameters:
    ///   - arguments: The command line after the program name.
    ///   - environment: The environment (for commands, `NO_COLOR`, `COLUMNS`).
    ///   - console: Where to print.
    ///   - handlesSignals: Whether SIGINT and SIGTERM interrupt a run (true for the binary).
    ///   - exitProcess: Told the code a run ends with as soon as everything is written and nothing runs.
    ///     The binary exits there, without first freeing the run's objects one by one (work that grows with
    ///     the number of commands) and returning; in-process callers leave it `nil`, or return from it to go on.
    package static func main(
        _ arguments: [String], environment: [String: String], console: Console, handlesSignals: Bool = false,
        exitProcess: (@Sendable (ExitCode) -> Void)? = nil
    ) async -> ExitCode {
        let invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(arguments)
        } catch {
            let help = error.subcommand.map { "startup \($0.rawValue) --help" } ?? "startup --help"
            console.error(error.message, details: "Usage: see \(help)")
            return .usage
        }
        switch invocation {
        case .help(let subcommand):
            console.out(HelpText.text(for: subcommand) + "\n")
            return .success
        case .version:
            console.out("startup \(HelpText.version)\n")
            return .success
        case .plan(let options):
            do { try PlanCommand.execute(options, console: console) } catch { return error }
        case .graph(let options):
            do { try PlanCommand.execute(options, console: console, learnsFromLastRun: false) } catch { return error }
        case .plot(let options):
            do { try PlotCommand.execute(options, console: console) } catch { return error }
        case .diff(let options):
            do { try DiffCommand.execute(options, console: console) } catch { return error }
        case .completions(let shell):
            CompletionsCommand.printScript(for: shell, console: console)
        case .commandIDs(let manifest):
            CompletionsCommand.printIDs(ofManifest: manifest, console: console)
        case .runIDs(let manifest):
            await CompletionsCommand.printRunIDs(ofManifest: manifest, console: console, environment: environment)
        case .control(let options):
            return await ControlCommand.execute(options, console: console, environment: environment, handlesSignals: handlesSignals)
        case .run(let options):
            do {
                try await RunCommand.execute(
                    options, console: console, environment: environment, handlesSignals: handlesSignals, exitProcess: exitProcess)
            } catch {
                return error
            }
        }
        return .success
    }
}
