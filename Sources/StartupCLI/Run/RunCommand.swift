import Foundation
import StartupKit
import StartupManifest
import StartupReporting

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
    ///     the run, and `startup` adopts its commands' orphans (the binary); in-process callers
    ///     cancel the calling task instead.
    static func execute(_ options: RunOptions, console: Console, environment: [String: String], handlesSignals: Bool) async throws(ExitCode) {
        var manifest = try ManifestLoading.select(
            options.targets, from: ManifestLoading.load(options.file, console: console), for: .run, console: console)
        let manifestDirectory = ManifestFolder.path(forManifest: options.file)
        let reportPath = options.report ?? ReportFiles.defaultPath(forManifest: options.file)
        if options.savesReport, let lastRun = ReportFiles.lastRun(reportPath, console: console) {
            // Measured durations order commands without an estimate, critical path first.
            manifest = MeasuredEstimates(run: lastRun, manifest: manifest, source: reportPath).applied(to: manifest)
        }
        let outputs = CommandOutputs()
        let execution = ShellExecution(
            manifestDirectory: manifestDirectory, environment: environment, output: options.output,
            gracePeriod: options.gracePeriod, simulate: options.simulate, outputs: outputs)
        let plan = try ManifestLoading.plan(manifest, binding: execution.binding(for: manifest), console: console)

        let style = Style(enabled: console.usesColor)
        var observers: [any StartupObserver] = []
        if options.format == .text {
            let idWidth = min(32, plan.ids.map(\.rawValue.count).max() ?? 0)
            observers.append(ProgressPrinter(console: console, style: style, outputs: outputs, mode: options.output, idWidth: idWidth))
        }
        let orchestrator = StartupOrchestrator(plan, options: .init(
            maxConcurrency: options.jobs, failurePolicy: options.failFast ? .failFast : .continueIndependent,
            observers: observers))

        let interrupts = handlesSignals ? InterruptHandler() : nil
        defer { interrupts?.stop() }
        if let interrupts {
            ProcessEngine.shared.adoptOrphans()
            console.whenOutputCloses(interrupts.outputClosedAction)
        }
        let report = await run(orchestrator, interrupts: interrupts)
        let saved = SavedRun(report: report, settings: RunSettings(
            manifestPath: URL(fileURLWithPath: options.file).standardizedFileURL.path, isSimulated: options.simulate,
            jobs: options.jobs, wallBudget: options.budget,
            budgets: Dictionary(manifest.commands.compactMap { command in command.budget.map { (command.id, $0) } }, uniquingKeysWith: { first, _ in first })))
        let violations = report.status == .cancelled ? [] : saved.budgetViolations

        switch options.format {
        case .json:
            console.out(saved.json().text(pretty: true) + "\n")
        case .text:
            console.out(RunSummaryRenderer(report: report, outputs: outputs, style: style,
                                           outputAlreadyShown: options.output == .grouped).render())
            console.out(BudgetRenderer(run: saved, style: style).render())
            if options.trace { console.out(TimelineRenderer(report: report, style: style, width: console.width).render()) }
        }
        var exitCode: ExitCode? = switch report.status {
        case .succeeded: violations.isEmpty ? nil : .failure
        case .failed: .failure
        case .cancelled: .interrupted
        }
        var written: [String] = []
        if options.trace {
            // Beside the manifest, spelled as the user spelled the manifest's path.
            let path = options.traceFile ?? ManifestFolder.prefix(forManifest: options.file) + ".startup/trace.json"
            if ReportFiles.write(ReportExport.chromeTrace(report).text() + "\n", to: path, what: "trace", console: console) {
                written.append("Trace written to \(path) (open it in https://ui.perfetto.dev or chrome://tracing)")
            } else {
                exitCode = exitCode ?? .cannotCreate
            }
        }
        if options.savesReport {
            if ReportFiles.write(saved.json().text(pretty: true) + "\n", to: reportPath, what: "report", console: console,
                                 isWarning: options.report == nil) {
                let shown = options.report ?? ReportFiles.displayPath(forManifest: options.file)
                written.append("Report saved to \(shown) (startup plot, startup diff and startup plan read it)")
            } else if options.report != nil {
                exitCode = exitCode ?? .cannotCreate
            }
        }
        if let plotPath = options.plot {
            let svg = TimelineSVG(run: saved, title: "startup run " + options.file).render()
            if ReportFiles.write(svg, to: plotPath, what: "plot", console: console) {
                written.append("Timeline drawn in \(plotPath)")
            } else {
                exitCode = exitCode ?? .cannotCreate
            }
        }
        if options.format == .text, !written.isEmpty {
            console.out("\n" + written.joined(separator: "\n") + "\n")
        }
        if !violations.isEmpty {
            console.err("error: over budget: " + violations.map(\.description).joined(separator: "; ") + "\n")
        }
        if await shutDown(plan: plan, report: report, stops: execution.stopModules(for: manifest), options: options,
                          console: console, style: style, outputs: outputs, interrupts: interrupts) {
            exitCode = exitCode ?? .failure
        }
        if console.isOutputClosed { exitCode = .outputClosed }
        if let exitCode { throw exitCode }
    }

    /// After Ctrl-C, or when `--keep-running` is stopped, runs the stop lines of the commands that
    /// succeeded in reverse dependency order. Returns whether a stop line failed.
    private static func shutDown(
        plan: StartupPlan, report: StartupReport, stops: [CommandID: any LifecycleModule], options: RunOptions,
        console: Console, style: Style, outputs: CommandOutputs, interrupts: InterruptHandler?
    ) async -> Bool {
        var interrupted = report.status == .cancelled
        if options.keepRunning, !interrupted {
            if options.format == .text {
                console.out("\nKeeping running: press Ctrl-C to stop" + (stops.isEmpty ? ".\n" : " (stop lines run in reverse dependency order).\n"))
            }
            await waitForInterrupt(interrupts)
            interrupted = true
        }
        guard interrupted, !stops.isEmpty,
              let lifecycle = try? StartupLifecycle(plan: plan, report: report, modules: stops) else { return false }
        // Its own task: the interrupt that started the shutdown must not cancel it; a second one does.
        let shutdown = Task { await lifecycle.shutdown() }
        interrupts?.route { shutdown.cancel() }
        let stopped = await shutdown.value
        interrupts?.unroute()
        if options.format == .text {
            console.out(ShutdownRenderer(report: stopped, outputs: outputs, style: style).render())
        }
        return !stopped.failures.isEmpty
    }

    /// Suspends until SIGINT, SIGTERM or SIGHUP (the binary) or until the calling task is cancelled.
    private static func waitForInterrupt(_ interrupts: InterruptHandler?) async {
        let waiting = Task { try? await Task.sleep(for: .seconds(10 * 365 * 86_400)) }
        interrupts?.route { waiting.cancel() }
        defer { interrupts?.unroute() }
        await withTaskCancellationHandler {
            await waiting.value
        } onCancel: {
            waiting.cancel()
        }
    }

    /// Runs the orchestrator in a task that an interrupt, or cancelling the caller, cancels.
    /// The handler was installed before the first command starts, so no Ctrl-C slips past it.
    /// The task prefers the process engine's thread, so scheduling and spawning share one loop.
    private static func run(_ orchestrator: StartupOrchestrator, interrupts: InterruptHandler?) async -> StartupReport {
        let run = if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            Task(executorPreference: ProcessEngine.shared) { await orchestrator.run() }
        } else {
            Task { await orchestrator.run() }
        }
        interrupts?.route { run.cancel() }
        defer { interrupts?.unroute() }
        return await withTaskCancellationHandler {
            await run.value
        } onCancel: {
            run.cancel()
        }
    }
}
