import StartupKit
import StartupReporting
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client subcommands, `startup ps`, `restart`, `stop`, `start`, `logs`, `down` and `events`: find the run of
/// the manifest, send the request, print the answers, and exit as the run says (0, 1, 64), or 69 when no run is up.
enum ControlCommand {
    /// Asks the run of `options.file` and prints its answers; returns the exit status. With `handlesSignals` (the
    /// binary), Ctrl-C, SIGTERM and SIGHUP end the client at once and quietly, as they would any command line tool
    /// (`logs -f` and `events` end only so): the thread that waits for the answers takes them at their default.
    static func execute(
        _ options: ControlOptions, console: Console, environment: [String: String], handlesSignals: Bool = false
    ) async -> ExitCode {
        let path = ControlSocketPath.forManifest(options.file, environment: environment)
        var width = options.request.ids.map(\.rawValue.count).max() ?? 0
        if case .logs([], _, follow: true) = options.request, options.format == .text {
            // The prefix is as wide as the widest id of the run, as in the run's own stream.
            let rows = await exchange(.ps, at: path, options: options, console: console, printing: false, handlesSignals: handlesSignals)
            guard case .answered(_, let answers) = rows else { return rows.code(options, console: console) }
            width = answers.compactMap { if case .row(let row) = $0 { row.id.rawValue.count } else { nil } }.max() ?? 0
        }
        let printer = ControlPrinter(options: options, console: console, idWidth: width)
        let outcome = await exchange(
            options.request, at: path, options: options, console: console, printing: true, printer: printer, handlesSignals: handlesSignals)
        if case .answered(let final, let answers) = outcome, final == .ok(true) || final == .ok(false) {
            printer.finish(answers)
        }
        return outcome.code(options, console: console)
    }

    /// How an exchange ended.
    enum Outcome: Sendable {
        /// The final answer, and the answers kept before it (rows and, unless followed, log lines).
        case answered(ControlAnswer, [ControlAnswer])
        /// The run closed the connection before its final answer.
        case cutShort
        /// No run could be reached.
        case unreachable(ControlClient.Unreachable)

        /// The exit status, after saying what went wrong.
        func code(_ options: ControlOptions, console: Console) -> ExitCode {
            switch self {
            case .answered(.ok(let succeeded), _): return succeeded ? .success : .failure
            case .answered(.error(let message, let exit), _):
                console.error(message)
                return ExitCode(rawValue: exit)
            case .answered: return .failure
            case .cutShort:
                // A run asked to go down may go before it says so. A stream's run ends it with a last answer: one that
                // just closed was killed.
                if options.request == .down { return .success }
                let what = options.request.isStream ? "ended without saying so (was it killed?)" : "ended before it answered"
                console.error("the run of \(MessageQuoting.escaped(options.file)) \(what)")
                return .failure
            case .unreachable(.noRun):
                console.error("no run of \(MessageQuoting.escaped(options.file)) is up")
                return .unavailable
            case .unreachable(.unsafe(let problem)):
                console.error(problem)
                return .noPermission
            }
        }
    }

    /// Sends `request` to the run at `path` and hands each answer to `printer` as it comes (when `printing`),
    /// on a thread of its own.
    private static func exchange(
        _ request: ControlRequest, at path: ControlSocketPath, options: ControlOptions, console: Console, printing: Bool,
        printer: ControlPrinter? = nil, handlesSignals: Bool
    ) async -> Outcome {
        await DedicatedThread.result {
            if handlesSignals { interruptible() }
            let descriptor: Int32
            switch ControlClient.connect(path) {
            case .success(let connected): descriptor = connected
            case .failure(let reason): return .unreachable(reason)
            }
            defer { close(descriptor) }
            var kept: [ControlAnswer] = []
            let final = ControlClient.exchange(request, on: descriptor) { answer in
                if printing, let printer, printer.print(answer) { return }
                kept.append(answer)
            }
            return final.map { .answered($0, kept) } ?? .cutShort
        }
    }
}

/// Lets SIGINT, SIGTERM and SIGHUP reach the calling thread (a thread `startup` starts may hold them blocked, as
/// whoever started `startup` may have): with their default action, one of them ends the process.
private func interruptible() {
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
}
