import StartupKit
import StartupReporting
import StartupSupport

/// What follows a run's start-up: holding the services (and `--keep-running`) until Ctrl-C,
/// SIGTERM, SIGHUP or a service ending by itself, then the one shutdown walk, which stops every
/// service and runs the `stop` line of every other command that succeeded, in reverse dependency
/// order. A plain run that ended by itself stops nothing; one that was interrupted runs the stop
/// lines of what had succeeded.
///
/// With a command after `--` (CI mode), the command runs in the foreground once the start-up
/// succeeded (never when it failed), and its end ends the session; `startup` then exits with its
/// status.
struct RunSession {
    /// How the session ended.
    struct Ending {
        /// The shutdown, if there was one.
        var shutdown: ShutdownReport?
        /// The exit code the session calls for, if any (the start-up's own comes first).
        var exitCode: ExitCode?
    }

    let run: StartupRun
    let report: StartupReport
    /// The reloads on file changes, stopped before the shutdown; `nil` when nothing is watched.
    let reloads: ReloadLoop?
    let stops: [CommandID: any StoppableModule]
    /// The shutdown's bound of a service's stop, a backstop (see ``ShellExecution/serviceStopBound(for:)``).
    let serviceStopBound: Duration
    let options: RunOptions
    let console: Console
    let style: Style
    let outputs: CommandOutputs
    /// How each stopped service's processes ended.
    let processEndings: ProcessEndings
    let interrupts: InterruptHandler?
    let sessionEnd: OneShot<RunWatcher.SessionEnd>
    /// `startup`'s own environment, which the command after `--` gets.
    let environment: [String: String]

    /// Holds what runs for as long as the options say, then shuts it down.
    func hold() async -> Ending {
        let servicesReady = report.commands.contains { $0.isService && $0.status.isSuccess }
        guard report.status == .succeeded else {
            // Start-up failed or was interrupted: stop what is serving, and after an interrupt
            // undo what succeeded. The command after `--` never runs, and that is said.
            let interrupted = report.status == .cancelled
            if let command = options.command {
                let why = interrupted ? "the start-up was interrupted" : "the start-up failed"
                console.notice("\(Self.shellWords(command)) was not run: \(why)")
            }
            guard servicesReady || (interrupted && !stops.isEmpty) else { return Ending() }
            return Ending(shutdown: await shutDown(), exitCode: nil)
        }
        if let command = options.command { return await runInForeground(command) }
        guard servicesReady || options.keepRunning else { return Ending() }
        if options.format == .text {
            let what = servicesReady ? "Services running" : "Keeping running"
            let order = servicesReady || !stops.isEmpty ? " (then everything stops in reverse dependency order)" : ""
            console.out("\n\(what): press Ctrl-C to stop\(order).\n")
        }
        let reason = await waitForEnd()
        let shutdown = await shutDown()
        switch reason {
        case .interrupted:
            return Ending(shutdown: shutdown, exitCode: shutdown.failuresNotCutShort.isEmpty ? .interrupted : .failure)
        case .serviceEnded(let error):
            console.error("\(processEndings.sentence(error)); shutting down")
            return Ending(shutdown: shutdown, exitCode: .failure)
        case .downRequested:
            return Ending(shutdown: shutdown, exitCode: shutdown.failuresNotCutShort.isEmpty ? nil : .failure)
        case .commandExited:
            preconditionFailure("no command runs without --")
        }
    }

    /// CI mode: runs `command` with the terminal, in `startup`'s process group, until it exits; a
    /// service ending by itself, or an interrupt that reaches `startup` alone, stops it (SIGTERM,
    /// SIGKILL after the grace period). Then the shutdown; the exit status is the command's, 1 if a
    /// service ended by itself, 130 if interrupted.
    private func runInForeground(_ command: [String]) async -> Ending {
        var environment = environment
        environment[ProcessSpec.commandIDVariable] = nil
        environment[ProcessSpec.processTokenVariable] = nil
        let spec = ProcessSpec(arguments: command, environment: environment, output: .inherit, foreground: true)
        if options.format == .text { console.out("\nRunning \(Self.shellWords(command))\n") }
        let running = Task { [options, sessionEnd] in
            let outcome = await ProcessSpawner.run(spec, terminationGracePeriod: options.gracePeriod)
            sessionEnd.resolve(.commandExited)
            return outcome
        }
        let reason = await waitForEnd()
        if case .commandExited = reason {} else { running.cancel() }
        let outcome = await running.value
        if case .failedToStart(_, let message) = outcome.termination { console.error(message) }
        let shutdown = await shutDown()
        switch reason {
        case .interrupted:
            return Ending(shutdown: shutdown, exitCode: .interrupted)
        case .serviceEnded(let error):
            console.error("\(processEndings.sentence(error)); stopped \(MessageQuoting.escaped(command[0])) and shutting down")
            return Ending(shutdown: shutdown, exitCode: .failure)
        case .commandExited:
            return Ending(shutdown: shutdown, exitCode: .passedOn(outcome.termination))
        case .downRequested:
            // The command's own status, as for any end of it: a test run cut short by `startup down` does not pass.
            return Ending(shutdown: shutdown, exitCode: shutdown.failuresNotCutShort.isEmpty ? .passedOn(outcome.termination) : .failure)
        }
    }

    /// `command` as a shell would take it back: words with anything but plain characters in single
    /// quotes, control characters escaped.
    static func shellWords(_ command: [String]) -> String {
        command.map { word in
            let plain =
                !word.isEmpty
                && word.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || $0.properties.numericType != nil || "_./:=@%+,-".unicodeScalars.contains($0)
                }
            return plain ? word : "'" + MessageQuoting.escaped(word).replacing("'", with: #"'\''"#) + "'"
        }.joined(separator: " ")
    }

    /// Waits for SIGINT, SIGTERM or SIGHUP (the binary), the calling task's cancellation
    /// (in-process), a service ending by itself, or `startup down`.
    private func waitForEnd() async -> RunWatcher.SessionEnd {
        // The start-up succeeded, so an interrupt that came during it found nothing left to cancel (it came as
        // the start-up ended): it ends the session now rather than being lost.
        if interrupts?.hasInterrupted == true { return .interrupted }
        interrupts?.route { [sessionEnd] in sessionEnd.resolve(.interrupted) }
        defer { interrupts?.unroute() }
        return await withTaskCancellationHandler {
            await sessionEnd.value()
        } onCancel: { [sessionEnd] in
            sessionEnd.resolve(.interrupted)
        }
    }

    /// The one shutdown walk, in a task of its own: the interrupt that began it must not cancel
    /// it (a second one makes the process engine kill what it is stopping at once).
    private func shutDown() async -> ShutdownReport {
        await reloads?.stop()
        let stopping = Task { [run, stops, serviceStopBound] in await run.shutdown(modules: stops, stopTimeout: serviceStopBound) }
        let stopped = await stopping.value
        if options.format == .text, !stopped.modules.isEmpty {
            console.out(ShutdownRenderer(report: stopped, outputs: outputs, endings: processEndings, style: style).render())
        }
        return stopped
    }
}
