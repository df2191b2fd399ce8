import StartupKit

/// What follows a run's start-up: holding the services (and `--keep-running`) until Ctrl-C,
/// SIGTERM, SIGHUP or a service ending by itself, then the one shutdown walk, which stops every
/// service and runs the `stop` line of every other command that succeeded, in reverse dependency
/// order. A plain run that ended by itself stops nothing; one that was interrupted runs the stop
/// lines of what had succeeded.
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
    let stops: [CommandID: any LifecycleModule]
    let options: RunOptions
    let console: Console
    let style: Style
    let outputs: CommandOutputs
    let interrupts: InterruptHandler?
    let sessionEnd: SessionEnd

    /// Holds what runs for as long as the options say, then shuts it down.
    func hold() async -> Ending {
        let servicesReady = report.commands.contains { $0.isService && $0.status.isSuccess }
        guard report.status == .succeeded else {
            // Start-up failed or was interrupted: stop what is serving, and after an interrupt
            // undo what succeeded.
            let interrupted = report.status == .cancelled
            guard servicesReady || (interrupted && !stops.isEmpty) else { return Ending() }
            return Ending(shutdown: await shutDown(), exitCode: nil)
        }
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
            return Ending(shutdown: shutdown, exitCode: .interrupted)
        case .serviceEnded(let error):
            console.err("error: \(error.description); shutting down\n")
            return Ending(shutdown: shutdown, exitCode: .failure)
        case .commandExited:
            return Ending(shutdown: shutdown, exitCode: shutdown.failures.isEmpty ? nil : .failure)
        }
    }

    /// Waits for SIGINT, SIGTERM or SIGHUP (the binary), the calling task's cancellation
    /// (in-process), or a service ending by itself.
    private func waitForEnd() async -> SessionEnd.Reason {
        interrupts?.route { [sessionEnd] in sessionEnd.end(.interrupted) }
        defer { interrupts?.unroute() }
        return await withTaskCancellationHandler {
            await sessionEnd.wait()
        } onCancel: { [sessionEnd] in
            sessionEnd.end(.interrupted)
        }
    }

    /// The one shutdown walk, in a task of its own: the interrupt that began it must not cancel
    /// it (a second one makes the process engine kill what it is stopping at once).
    private func shutDown() async -> ShutdownReport {
        let stopping = Task { [run, stops] in await run.shutdown(modules: stops) }
        let stopped = await stopping.value
        if options.format == .text, !stopped.modules.isEmpty {
            console.out(ShutdownRenderer(report: stopped, outputs: outputs, style: style).render())
        }
        return stopped
    }
}
