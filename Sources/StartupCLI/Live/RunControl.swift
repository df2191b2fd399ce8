import Foundation
import StartupKit
import StartupManifest
import StartupReporting
import StartupSupport

/// The run's side of the control socket, and what a reload does: `ps` and `events` from the live model, moves by
/// hand on services (the library's ``StartupRun/restartService(_:)`` and its kin) and one-shot commands (run again
/// as at start-up), with `--cascade` over their dependents in order, the kept output, and the shutdown by request.
final class RunControl: ControlTarget {
    /// The run, once started: the control socket listens before its first command starts.
    private let started: OneShot<StartupRun>
    private let live: LiveRun
    private let graph: CommandGraph
    private let execution: ShellExecution
    private let outputs: CommandOutputs
    private let services: Set<CommandID>
    private let onDemand: Set<CommandID>
    /// The process of each one-shot command that has a `run` line.
    private let specs: [CommandID: ProcessSpec]
    private let console: Console
    /// The manifest's folder, which watched paths are relative to.
    private let folder: String
    private let style: Style
    /// A one-shot command running again: what it comes to, and its process's task once it has one.
    private struct Rerun: Sendable {
        let outcome: OneShot<MoveStep>
        var process: Task<MoveStep, Never>?
        /// A stop came before the process's task was known.
        var stopAsked = false
    }

    /// Guards the one-shot commands running again now, by id: a restart or start joins one, a stop stops it.
    private let reruns = Locked<[CommandID: Rerun]>([:])
    /// Shuts the run down as Ctrl-C would; returns the shutdown's lines and whether every stop succeeded.
    private let shutDown: @Sendable () async -> (lines: String, succeeded: Bool)

    init(
        run: OneShot<StartupRun>, live: LiveRun, plan: StartupPlan, manifest: Manifest, execution: ShellExecution, outputs: CommandOutputs,
        console: Console, style: Style, shutDown: @escaping @Sendable () async -> (lines: String, succeeded: Bool)
    ) {
        started = run
        self.live = live
        self.graph = CommandGraph(plan: plan)
        self.execution = execution
        self.outputs = outputs
        services = Set(manifest.commands.filter(\.isService).map(\.id))
        onDemand = Set(manifest.commands.filter(\.isOnDemand).map(\.id))
        var maker = execution.specMaker(for: manifest)
        var specs: [CommandID: ProcessSpec] = [:]
        for command in manifest.commands where !command.isService {
            if let line = command.run { specs[command.id] = maker.spec(for: command, line: line) }
        }
        self.specs = specs
        self.console = console
        self.style = style
        folder = execution.manifestDirectory
        self.shutDown = shutDown
    }

    func rows() async -> [ControlRow] {
        live.rows()
    }

    func events() -> AsyncStream<ControlEvent> {
        live.events()
    }

    func logs(_ ids: [CommandID], lines: Int?) async -> [ControlLogLine] {
        let wanted = ids.isEmpty ? live.rows().map(\.id) : ids
        return wanted.flatMap { id in
            var kept = outputs.output(of: id).split(separator: "\n", omittingEmptySubsequences: false)
            if kept.last == "" { kept.removeLast() }
            if let lines { kept = kept.suffix(max(lines, 0)) }
            return kept.map { ControlLogLine(id: id, text: String($0)) }
        }
    }

    func followLogs(_ ids: [CommandID]) -> AsyncStream<ControlLogLine> {
        let all = outputs.followed.subscribe(buffer: 4096)
        guard !ids.isEmpty else { return all }
        let wanted = Set(ids)
        return AsyncStream { continuation in
            let forwarding = Task {
                for await line in all where wanted.contains(line.id) { continuation.yield(line) }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }

    func down(say: @escaping @Sendable (String) -> Void) async -> Bool {
        let (lines, succeeded) = await shutDown()
        for line in lines.split(separator: "\n") { say(String(line)) }
        return succeeded
    }

    // MARK: - Moves

    func restart(_ ids: [CommandID], cascade: Bool, say: @escaping @Sendable (String) -> Void) async -> Bool {
        await restart(ids, cascade: cascade, what: "restart", say: say).allSatisfy(\.succeeded)
    }

    /// Restarts `ids` (with `cascade`, then what depends on them and is up, in order), says each step (and prints it
    /// on the run's terminal, unless `what` is `nil`) and with `cascade` the critical path, and returns the steps.
    @discardableResult
    func restart(_ ids: [CommandID], cascade: Bool, what: String?, say: @escaping @Sendable (String) -> Void) async -> [MoveStep] {
        let affected = cascade ? graph.withDependents(of: ids, where: isUp) : graph.sorted(ids)
        let steps = await MoveCascade.run(affected, graph: graph) { [self] id in
            let step = await restartOne(id)
            tell(step, what: what, say: say)
            return step
        }
        if cascade, steps.count > 1 {
            let path = MoveCascade.criticalPath(steps, graph: graph)
            if !path.isEmpty { say("critical path: " + MoveCascade.describe(path)) }
        }
        return steps
    }

    func stop(_ ids: [CommandID], cascade: Bool, say: @escaping @Sendable (String) -> Void) async -> Bool {
        let affected = cascade ? graph.withDependents(of: ids, where: isUp) : graph.sorted(ids)
        let steps = await MoveCascade.run(affected, graph: graph, reversed: true) { [self] id in
            let step = await stopOne(id)
            tell(step, what: "stop", say: say)
            return step
        }
        return steps.allSatisfy(\.succeeded)
    }

    func start(_ ids: [CommandID], say: @escaping @Sendable (String) -> Void) async -> Bool {
        // What each needs that a hand stopped first, then each.
        let affected = graph.withDependencies(of: ids).filter { [live] id in
            ids.contains(id) || live.state(of: id) == .stopped
        }
        let steps = await MoveCascade.run(affected, graph: graph) { [self] id in
            let step = await startOne(id)
            tell(step, what: "start", say: say)
            return step
        }
        return steps.allSatisfy(\.succeeded)
    }

    /// Whether `id` is up: a service serving or starting, a one-shot command that ran (or runs).
    private func isUp(_ id: CommandID) -> Bool {
        switch live.state(of: id) {
        case .ready, .starting, .restarting, .running, .succeeded: true
        default: false
        }
    }

    /// Says `step` to the client, and on the run's terminal as the `what` move's unless `what` is `nil`.
    private func tell(_ step: MoveStep, what: String?, say: @Sendable (String) -> Void) {
        say(step.sentence)
        guard let what else { return }
        let mark = step.succeeded ? style.yellow("⟳") : style.red("✗")
        console.out("\(mark) \(what) \(step.sentence)\n")
    }

    /// Reloads `id` after `changes` (to its watched paths): as `restart --cascade` (a one-shot command runs
    /// again while its dependents keep running, and they are restarted only once it succeeded), then prints the
    /// reload line with its wall time and critical path, and the failure if one step failed. The stack stays up
    /// whatever happens. Returns whether every step succeeded.
    @discardableResult
    func reload(_ id: CommandID, number: Int, changes: ReloadBatch) async -> Bool {
        // What is there now first: an editor's temporary file, written and renamed away, is not what a person changed.
        let changed =
            changes.paths.filter { FileManager.default.fileExists(atPath: folder + "/" + $0) }
            + changes.paths.filter { !FileManager.default.fileExists(atPath: folder + "/" + $0) }
        let batch = ReloadBatch(paths: changed, isOverflow: changes.isOverflow)
        if services.contains(id), live.state(of: id) == .stopped {
            // Stopped by hand: it stays stopped until `startup start`, whatever changes.
            let line = ReloadLine(number: number, batch: batch, wallTime: .zero, outcome: .stoppedByHand(id))
            console.out(line.text(style: style) + "\n")
            return true
        }
        let changedFields: [ControlEventField] = [
            ControlEventField("reload", .integer(number)), ControlEventField("changed", .strings(changed)),
        ]
        live.announce("reloadStarted", id: id, fields: changedFields)
        let began = live.elapsed
        let steps = await restart([id], cascade: true, what: nil) { _ in }
        let wall = live.elapsed - began
        let failure = steps.first { !$0.succeeded }
        let path = MoveCascade.criticalPath(steps, graph: graph)
        console.out(ReloadLine.render(number: number, batch: batch, wall: wall, path: path, failure: failure, style: style) + "\n")
        live.announce(
            "reloadEnded", id: id,
            fields: changedFields + [
                ControlEventField("wallMs", .integer(LiveRun.milliseconds(wall))),
                ControlEventField("outcome", .string(failure == nil ? "succeeded" : "failed")),
            ])
        return failure == nil
    }

    private func restartOne(_ id: CommandID) async -> MoveStep {
        let began = live.elapsed
        if services.contains(id) {
            live.restarting(id)
            do {
                let took = try await started.value().restartService(id)
                return step(
                    id, began, true, ready: true, "\(id.rawValue): stopped in \(format(took.stopped)), ready in \(format(took.ready))")
            } catch {
                return notStarted(id, began, error)
            }
        }
        return await runAgain(id, began: began)
    }

    /// Runs the one-shot command `id` again, as at start-up; one not run yet is waited for (or started, on demand),
    /// and one running again already is joined.
    private func runAgain(_ id: CommandID, began: Duration) async -> MoveStep {
        let joined = reruns.withLock { reruns in reruns[id]?.outcome }
        if let joined { return await joined.value() }
        if let state = live.state(of: id), [.waiting, .running].contains(state) || onDemand.contains(id) && state == .waiting {
            do {
                try await started.value().wait(for: [id])
                return step(id, began, true, ready: false, "\(id.rawValue): succeeded (it was not done yet)")
            } catch {
                return step(id, began, false, ready: false, "\(id.rawValue): \(error)")
            }
        }
        guard let spec = specs[id] else { return step(id, began, true, ready: false, "\(id.rawValue): nothing to run") }
        let outcome = OneShot<MoveStep>()
        let runs = reruns.withLock { reruns in
            guard reruns[id] == nil else { return false }
            reruns[id] = Rerun(outcome: outcome)
            return true
        }
        guard runs else { return await runAgain(id, began: began) }  // another asker came first: join it
        let process = Task { await rerun(id, spec: spec, began: began) }
        let stopAsked = reruns.withLock { reruns in
            reruns[id]?.process = process
            return reruns[id]?.stopAsked ?? false
        }
        if stopAsked { process.cancel() }
        // The reload that asked may be stopped (the shutdown): its run is stopped too.
        let step = await withTaskCancellationHandler {
            await process.value
        } onCancel: {
            process.cancel()
        }
        reruns.withLock { _ = $0.removeValue(forKey: id) }
        outcome.resolve(step)
        return step
    }

    /// Runs `spec`, the one-shot command `id`, once, and records how it ended.
    private func rerun(_ id: CommandID, spec: ProcessSpec, began: Duration) async -> MoveStep {
        live.runsAgain(id)
        let outcome = await execution.runProcess(spec, of: id, attempt: 1)
        do {
            try execution.record(outcome, of: id, attempt: 1)
            live.ranAgain(id, succeeded: true, why: nil)
            return step(id, began, true, ready: false, "\(id.rawValue): ran again in \(format(live.elapsed - began))")
        } catch is CancellationError {
            live.stopped(id)
            return step(id, began, false, ready: false, "\(id.rawValue): stopped after \(format(live.elapsed - began))")
        } catch {
            let why = String(describing: error)
            live.ranAgain(id, succeeded: false, why: why)
            let output = ProgressPrinter.indented(outputs.output(of: id))
            if !output.isEmpty { console.out(output) }
            return step(id, began, false, ready: false, "\(id.rawValue): failed after \(format(live.elapsed - began)): \(why)")
        }
    }

    /// Stops the one-shot command `id` if it runs again now, and returns how its run ended; `nil` if none runs.
    private func stopRerun(_ id: CommandID) async -> MoveStep? {
        let running = reruns.withLock { reruns -> (OneShot<MoveStep>, Task<MoveStep, Never>?)? in
            guard let rerun = reruns[id] else { return nil }
            reruns[id]?.stopAsked = true
            return (rerun.outcome, rerun.process)
        }
        guard let (outcome, process) = running else { return nil }
        process?.cancel()
        return await outcome.value()
    }

    private func stopOne(_ id: CommandID) async -> MoveStep {
        let began = live.elapsed
        guard services.contains(id) else {
            if let ended = await stopRerun(id) { return step(id, began, true, ready: false, ended.sentence) }
            return step(id, began, true, ready: false, "\(id.rawValue): a one-shot command, nothing runs to stop")
        }
        if live.state(of: id) == .stopped { return step(id, began, true, ready: false, "\(id.rawValue): stopped already") }
        do {
            let took = try await started.value().stopService(id)
            live.stopped(id)  // also when it was stopped between two incarnations, where no process ended
            return step(id, began, true, ready: false, "\(id.rawValue): stopped in \(format(took.stopped))")
        } catch {
            return step(id, began, false, ready: false, "\(id.rawValue): \(error)")
        }
    }

    private func startOne(_ id: CommandID) async -> MoveStep {
        let began = live.elapsed
        guard services.contains(id) else {
            if live.state(of: id) == .succeeded {
                return step(id, began, true, ready: false, "\(id.rawValue): ran already (startup restart \(id.rawValue) runs it again)")
            }
            return await runAgain(id, began: began)
        }
        if live.state(of: id) == .ready { return step(id, began, true, ready: true, "\(id.rawValue): running already") }
        do {
            let took = try await started.value().startService(id)
            return step(id, began, true, ready: true, "\(id.rawValue): ready in \(format(took.ready))")
        } catch {
            return notStarted(id, began, error)
        }
    }

    /// The step of a service's restart or start that did not bring it up: stopped by hand meanwhile, or not ready.
    private func notStarted(_ id: CommandID, _ began: Duration, _ error: ServiceControlError) -> MoveStep {
        if error.code == .stoppedByHand { live.stopped(id) } else { live.notReady(id, why: String(describing: error)) }
        return step(id, began, false, ready: true, "\(id.rawValue): \(error)")
    }

    private func step(_ id: CommandID, _ began: Duration, _ succeeded: Bool, ready: Bool, _ sentence: String) -> MoveStep {
        MoveStep(id: id, began: began, ended: live.elapsed, succeeded: succeeded, endsReady: ready, sentence: sentence)
    }

    private func format(_ duration: Duration) -> String {
        DurationText.format(duration)
    }
}
