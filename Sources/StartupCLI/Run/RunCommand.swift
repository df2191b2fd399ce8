import StartupKit
import StartupManifest
import StartupPlatform
import StartupReporting
import StartupSupport

/// `startup run`: runs the manifest's commands, prints progress and the summary, the timeline and
/// trace with `--trace`, or the JSON report; saves the report, draws it with `--plot`, and checks
/// the budgets.
enum RunCommand {
    /// Runs the manifest; throws the exit code unless every required command succeeded within
    /// its budget.
    ///
    /// - Parameters:
    ///   - options: The parsed options.
    ///   - console: Where to print.
    ///   - environment: The environment commands start from.
    ///   - handlesSignals: Whether SIGINT, SIGTERM, SIGHUP and a closed standard output interrupt
    ///     the run, `startup` adopts its commands' orphans, and every process still running at the
    ///     end is stopped before the exit (the binary); in-process callers cancel the calling task
    ///     instead, and other runs may share the process engine.
    ///   - exitProcess: Told the exit code once everything is written and nothing runs; the binary
    ///     exits there (see ``StartupTool/main(_:environment:console:handlesSignals:exitProcess:)``).
    static func execute(
        _ options: RunOptions, console: Console, environment: [String: String], handlesSignals: Bool,
        exitProcess: (@Sendable (ExitCode) -> Void)? = nil
    ) async throws(ExitCode) {
        var manifest = try ManifestLoading.select(
            options.targets, from: ManifestLoading.load(options.file, console: console), for: .run, console: console)
        let manifestDirectory = ManifestFolder.path(forManifest: options.file)
        // Before anything starts, and only for the commands selected; a simulated run starts no process.
        let environmentFiles =
            options.simulate
            ? EnvFileVariables()
            : try EnvFileLoading.load(for: manifest, manifestFile: options.file, manifestDirectory: manifestDirectory, console: console)
        let reportPath = options.report ?? ReportFiles.defaultPath(forManifest: options.file)
        if options.savesReport, MeasuredEstimates.areWanted(by: manifest), let lastRun = ReportFiles.lastRun(reportPath, console: console) {
            // Measured durations order commands without an estimate, critical path first.
            manifest = MeasuredEstimates(run: lastRun, manifest: manifest, source: reportPath).applied(to: manifest)
        }
        let outputs = CommandOutputs()
        let processEndings = ProcessEndings()
        let style = Style(enabled: console.usesColor)
        let idWidth = min(32, manifest.commands.map(\.id.rawValue.count).max() ?? 0)
        let serviceLines = ServiceLines(
            console: console, style: style, outputs: outputs, mode: options.output,
            toStandardError: options.format == .json, idWidth: idWidth)
        // A simulated run starts no process, so it has no output to log.
        let logs = options.simulate ? nil : options.logDirectory.map { RunLogs(folder: $0, console: console) }
        let live = LiveRun(manifest: manifest)
        let listens = options.staysUp(manifest) && !options.simulate
        let execution = ShellExecution(
            manifestDirectory: manifestDirectory, environment: environment, environmentFiles: environmentFiles, output: options.output,
            streamsToStandardError: options.format == .json, gracePeriod: options.gracePeriod, simulate: options.simulate, outputs: outputs,
            processEndings: processEndings, serviceLines: serviceLines, logs: logs, live: live, tracksProcesses: listens)
        let plan = try ManifestLoading.plan(manifest, binding: execution.binding(for: manifest), console: console)
        // Before anything starts: a folder that cannot be made stops the run (73), one that fails later only warns.
        try logs?.makeFolder(console: console)
        // Commands streaming into a file beside `startup`'s own lines write at its end (see `AppendingOutputFiles`); the
        // caller's flags are back before the binary exits.
        let appending =
            options.output == .stream && !options.simulate
            ? AppendingOutputFiles.standardStreams() : nil
        defer { appending?.restore() }
        for warning in appending?.warnings ?? [] { console.warning(warning) }

        var observers: [any StartupObserver] = []
        if options.format == .text {
            observers.append(
                ProgressPrinter(
                    console: console, style: style, outputs: outputs, mode: options.output, idWidth: idWidth,
                    services: Set(manifest.commands.filter(\.isService).map(\.id)), endings: processEndings))
        }
        if listens { observers.append(live) }  // only a run that others can ask keeps it
        let watcher = RunWatcher(endings: processEndings)
        observers.append(watcher)  // last: it sees the end after the others
        let orchestrator = StartupOrchestrator(
            plan,
            options: .init(
                maxConcurrency: options.jobs, failurePolicy: options.failFast ? .failFast : .continueIndependent,
                observers: observers, cancellationGrace: Self.cancellationGrace(gracePeriod: options.gracePeriod),
                whenAServiceEnds: .keepRunning,
                eventBatchWindow: progressInterval(output: options.output, hasServices: manifest.commands.contains(where: \.isService))))

        if handlesSignals { OutOfResources.requireOpenFiles() }  // the binary: before its first pipe
        // A run that stays up listens on its control socket from before its first command: one run per manifest.
        let started = OneShot<StartupRun>()
        // Whether `startup down` asked for the end, and what it waits for: the shutdown's lines and whether every stop
        // succeeded.
        let downAsked = RaisedFlag()
        let shutdownTold = OneShot<(lines: String, succeeded: Bool)>()
        let control =
            listens
            ? RunControl(
                run: started, live: live, plan: plan, manifest: manifest, execution: execution, outputs: outputs, console: console,
                style: style,
                shutDown: { [sessionEnd = watcher.sessionEnd] in
                    // As Ctrl-C: a start-up still going is cancelled, and the session ends.
                    downAsked.raise()
                    await started.value().cancel()
                    sessionEnd.resolve(.downRequested)
                    return await shutdownTold.value()
                }) : nil
        var server: ControlServer?
        if let control { server = try await listen(for: control, options: options, environment: environment, console: console) }
        let interrupts = handlesSignals ? InterruptHandler() : nil
        defer { interrupts?.stop() }
        if let interrupts {
            ProcessEngine.shared.adoptOrphans()
            RunGuardian.start(gracePeriod: options.gracePeriod)
            console.whenOutputCloses(interrupts.outputClosedAction)
        }
        // The binary's standard output: its reader leaving stops the run even while nothing is printed.
        let outputWatcher = interrupts.flatMap { _ in OutputCloseWatcher { [console] in console.readerLeft() } }
        defer { outputWatcher?.stop() }
        let run = start(orchestrator)
        started.resolve(run)
        let report = await startUp(run, interrupts: interrupts)
        _ = await watcher.startUpShown.value()
        let saved = SavedRun(
            report: report,
            settings: RunSettings(
                manifestPath: FilePaths.absolute(options.file), isSimulated: options.simulate,
                jobs: options.jobs, wallBudget: options.budget,
                budgets: Dictionary(
                    manifest.commands.compactMap { command in command.budget.map { (command.id, $0) } },
                    uniquingKeysWith: { first, _ in first })))
        let violations = report.status == .cancelled ? [] : saved.budgetViolations
        // Written beside the summary, on other threads: the report of a large run takes a few milliseconds.
        async let reportJSON: String? =
            options.savesReport || options.format == .json ? await saved.text(parts: reportParts) : nil

        if options.format == .text {
            console.out(
                RunSummaryRenderer(
                    report: report, outputs: outputs, style: style,
                    outputAlreadyShown: options.output == .grouped
                ).render())
            console.out(BudgetRenderer(run: saved, style: style).render())
            if options.trace { console.out(TimelineRenderer(report: report, style: style, width: console.width).render()) }
        }
        var exitCode: ExitCode? =
            switch report.status {
            case .succeeded: violations.isEmpty ? nil : .failure
            case .failed: .failure
            case .cancelled: downAsked.isRaised ? nil : .interrupted  // a stop asked for is not an interrupt
            }

        // Files change and reload their commands while the run holds (not in CI mode, not with --no-watch).
        let reloads =
            if let control, report.status == .succeeded, options.watches {
                await ReloadLoop.start(
                    manifest: manifest, folder: manifestDirectory,
                    excludedPaths: [options.logDirectory, options.report, options.traceFile, options.plot].compactMap { $0 },
                    control: control, console: console)
            } else {
                nil as ReloadLoop?
            }
        let session = RunSession(
            run: run, report: report, reloads: reloads, stops: execution.stopModules(for: manifest),
            serviceStopBound: execution.serviceStopBound(for: manifest), options: options,
            console: console, style: style, outputs: outputs, processEndings: processEndings, interrupts: interrupts,
            sessionEnd: watcher.sessionEnd,
            environment: environment)
        let ending = await session.hold()
        shutdownTold.resolve(
            (
                ending.shutdown.map {
                    ShutdownRenderer(report: $0, outputs: outputs, endings: processEndings, style: Style(enabled: false)).render()
                } ?? "", ending.shutdown?.failuresNotCutShort.isEmpty ?? true
            ))
        server?.close()
        live.finish()
        outputs.followed.finish()
        if let code = ending.exitCode { exitCode = options.command != nil ? code : exitCode ?? code }

        let savedJSON = await reportJSON
        if options.format == .json {
            // The shutdown and how stopped commands' processes ended are not part of the saved report, which is the
            // start-up's as the library reports it: they are written into the printed one as it is written.
            if ending.shutdown != nil || processEndings.hasCommandEndings {
                let additions = ReportAdditions(
                    commandMembers: { CommandEndingsJSON.members(of: $0, endings: processEndings) },
                    members: ending.shutdown.map { [("shutdown", ShutdownJSON.json($0, endings: processEndings))] } ?? [])
                console.out(await ReportExport.jsonText(report, settings: saved.settings, parts: reportParts, additions: additions))
            } else if let savedJSON {
                console.out(savedJSON)
            }
        }
        let files = RunFiles(options: options, console: console)
        let written = [
            files.writeTrace(report, shutdown: ending.shutdown),
            files.writeReport(savedJSON, reportPath: reportPath),
            files.writePlot(saved),
        ].compactMap { $0 }
        if files.anyFailed { exitCode = exitCode ?? .cannotCreate }
        if options.format == .text, !written.isEmpty {
            console.out("\n" + written.joined(separator: "\n") + "\n")
        }
        if !violations.isEmpty {
            console.error("over budget: " + violations.map(\.description).joined(separator: "; "))
        }
        if console.isOutputClosed { exitCode = .outputClosed }
        // The run may have abandoned a command whose process is still running (a timed-out command that ignored
        // SIGTERM, a stop line or service over its shutdown timeout): the binary stops it (SIGKILL after the grace
        // period, or at once on Ctrl-C: the run is over, nothing is left to wait for) before it exits, and says so.
        if let interrupts {
            let interruptedBefore = interrupts.interruptCount
            interrupts.route { ProcessEngine.shared.killAtOnce() }
            // The engine counts its children (a command's process, a stop line), not what each of them started.
            await ProcessEngine.shared.stopEveryChild { count, longestGrace in
                let commands = count == 1 ? "1 command" : "\(count) commands"
                let kill =
                    longestGrace > .zero
                    ? "SIGKILL in \(DurationText.format(longestGrace)) at most, or at once on Ctrl-C" : "SIGKILL sent"
                console.notice("waiting for what \(commands) the run gave up on left running (\(kill))")
            }
            // An interrupt during this wait ends it, and the run, as an interrupt: exit 130 (141 for a closed output).
            if interrupts.interruptCount > interruptedBefore { exitCode = console.isOutputClosed ? .outputClosed : .interrupted }
        }
        // What the commands' pipes still hold, and what waits to be written to the logs.
        await logs?.finish()
        appending?.restore()
        // A client's last answer (`startup down`'s) is written before the exit ends its connection.
        await server?.answersWritten(within: .seconds(1))
        // Everything is written and nothing runs: the binary ends here, the run's objects left unfreed.
        exitProcess?(exitCode ?? .success)
        if let exitCode { throw exitCode }
    }

    /// Listens on the control socket of `options.file`'s run: a run of the manifest that is up already ends this one
    /// before anything starts (exit 1); a socket that cannot be made is a warning, and the run goes on without one.
    private static func listen(
        for control: RunControl, options: RunOptions, environment: [String: String], console: Console
    ) async throws(ExitCode) -> ControlServer? {
        do {
            return try await ControlServer.start(manifest: options.file, target: control, environment: environment)
        } catch {
            if error.code == .alreadyUp {
                console.error(error.message)
                throw .failure
            }
            console.warning("\(error.message); startup ps, restart and down cannot reach this run")
            return nil
        }
    }

    /// How many tasks write the report's JSON side by side: one per core, at most four.
    private static let reportParts = min(ProcessorCount.online, 4)
    /// The longest the run waits for a stopped command (a timeout, fail-fast) to end before it moves on: its grace
    /// period, and time to reap it after SIGKILL on a loaded machine, so that its line says how it ended; at most a few
    /// seconds, so that a long `--grace-period` does not hold the run (what is left then is waited for at its end, where
    /// Ctrl-C kills it). A command that ends sooner is not waited for longer.
    static func cancellationGrace(gracePeriod: Duration) -> Duration {
        min(gracePeriod, .seconds(5)) + .seconds(5)
    }

    /// How long progress lines may wait to be printed together: 20 ms, so a busy run wakes the
    /// printing task a few dozen times a second rather than once per command, and a person sees no
    /// delay. None when other lines reach the terminal on their own (commands' output streamed,
    /// services' output): a command's line should not wait behind what its dependents print.
    static func progressInterval(output: OutputMode, hasServices: Bool) -> Duration {
        output == .stream || hasServices ? .zero : .milliseconds(20)
    }

    /// Starts the run; it prefers the process engine's thread, so scheduling and spawning share
    /// one loop.
    private static func start(_ orchestrator: StartupOrchestrator) -> StartupRun {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            orchestrator.start(preferring: ProcessEngine.shared)
        } else {
            orchestrator.start()
        }
    }

    /// Waits for the start-up's report; an interrupt, or cancelling the caller, cancels the
    /// start-up. The handler was installed before the first command starts, so no Ctrl-C slips
    /// past it.
    private static func startUp(_ run: StartupRun, interrupts: InterruptHandler?) async -> StartupReport {
        interrupts?.route { run.cancel() }
        defer { interrupts?.unroute() }
        return await withTaskCancellationHandler {
            await run.report()
        } onCancel: {
            run.cancel()
        }
    }
}
