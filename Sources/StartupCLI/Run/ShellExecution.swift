import StartupKit
import StartupManifest

/// Binds every manifest command with a `run` line to a process: spawned without a shell when the
/// line needs none, in its own process group, with the manifest's environment and directory. A
/// command with `ready` is a service: ready when its probe succeeds, its output streamed, and
/// stopped (its `stop` line, else SIGTERM) at shutdown.
struct ShellExecution: Sendable {
    /// The folder `cwd` values are relative to: the manifest's.
    let manifestDirectory: String
    /// The environment every command starts from (the CLI's own).
    let environment: [String: String]
    /// The variables of the manifest's env files, read before anything starts.
    let environmentFiles: EnvFileVariables
    let output: OutputMode
    /// Streamed output goes to standard error, not standard output (which `--format json` keeps for its JSON).
    let streamsToStandardError: Bool
    let gracePeriod: Duration
    let simulate: Bool
    let outputs: CommandOutputs
    /// How each stopped service's processes ended.
    let processEndings: ProcessEndings
    /// Where services' output lines go.
    let serviceLines: ServiceLines
    /// Where every command's and service's output is logged too (`--log-dir`); `nil` for no logs, and then a command
    /// runs with no step of logging at all.
    let logs: RunLogs?
    /// The run's live model, told of each process and each service's readiness and stop.
    let live: LiveRun
    /// Whether the live model hears each command's pid: only in a run that others can ask (a spawn that is announced
    /// wakes the engine's loop once more).
    let tracksProcesses: Bool
    /// The first line of grouped output that lost its beginning: says where and why it was cut.
    static let cutNote =
        "[… earlier output cut here: grouped output keeps the last \(CaptureFile.tailLimit / 1024) KiB of each command; --output stream shows all of it]\n"
    /// How much earlier than a service's body the run's timer of its time to ready may have started, at most.
    private static let timerSkew = Duration.milliseconds(50)
    /// Standard error's descriptor.
    private let standardError: Int32 = 2
    /// This process's working directory, where children start unless told otherwise.
    private let currentDirectory = FilePaths.currentDirectory() ?? "."

    /// The binding of every command that has a `run` line.
    func binding(for manifest: Manifest) -> ManifestBinding {
        var binding = ManifestBinding()
        var specs = specMaker(for: manifest)
        for command in manifest.commands {
            guard let line = command.run else { continue }
            if let readiness = command.ready {
                bindService(
                    command, line: line, readiness: readiness, readyTimeout: command.readyTimeout(defaults: manifest.defaults),
                    specs: &specs,
                    into: &binding)
            } else if simulate {
                let estimate = command.estimate ?? .zero
                binding.bind(command.id) { _ in try await Task.sleep(for: estimate) }
            } else {
                let spec = specs.spec(for: command, line: line)
                binding.bind(command.id) { context in
                    let outcome = await runProcess(spec, of: command.id, attempt: context.attempt)
                    try record(outcome, of: command.id, attempt: context.attempt)
                }
            }
        }
        return binding
    }

    /// Runs `spec`, command `id`'s process, once (its attempt `attempt`), logged if the run logs, and returns how it
    /// ended.
    func runProcess(_ spec: ProcessSpec, of id: CommandID, attempt: Int) async -> ProcessOutcome {
        var onSpawned: (@Sendable (Int32) -> Void)?
        if tracksProcesses { onSpawned = { @Sendable [live] pid in live.spawned(id, pid: pid) } }
        if let logs {
            return await logs.run(spec, of: id, attempt: attempt, terminationGracePeriod: gracePeriod, onSpawned: onSpawned)
        }
        return await ProcessSpawner.run(spec, terminationGracePeriod: gracePeriod, onSpawned: onSpawned)
    }

    /// Records the output of command `id`'s attempt, and how its processes ended if it was stopped (a timeout, Ctrl-C,
    /// fail-fast), and throws unless it succeeded.
    func record(_ outcome: ProcessOutcome, of id: CommandID, attempt: Int) throws {
        let text = String(decoding: outcome.output, as: UTF8.self)
        outputs.record(outcome.outputTruncated ? Self.cutNote + text : text, for: id)
        let ending = ProcessEndings.StopEnding(outcome, hasStopLine: false)
        // Only a retry can follow a stopped attempt: a first attempt that was not stopped has nothing to forget.
        if ending != nil || attempt > 1 { processEndings.recordCommand(ending, for: id) }
        if ending != nil { throw CancellationError() }
        guard outcome.termination.isSuccess else { throw ShellCommandError(termination: outcome.termination) }
    }

    private func bindService(
        _ command: ManifestCommand, line: String, readiness: ManifestReadiness, readyTimeout: Duration,
        specs: inout ProcessSpecMaker, into binding: inout ManifestBinding
    ) {
        let id = command.id
        if simulate {
            let estimate = command.estimate ?? .zero
            binding.bindService(id) { _, ready in
                try await Task.sleep(for: estimate)
                ready()
                try await Task.sleep(for: .seconds(365 * 86_400))
            }
            return
        }
        let spec = specs.spec(for: command, line: line)
        let stop = command.stop.map { specs.spec(for: command, line: $0) }
        binding.bindService(id) { [serviceLines, gracePeriod, processEndings, logs, live] context, ready in
            logs?.logStart(of: id, context)
            defer { if Task.isCancelled { live.stopped(id) } }
            // The run's timer of the time to ready started just before this body: the not-ready line is for that timeout,
            // not for a stop of the start-up (Ctrl-C, fail-fast), which cancels earlier.
            let timeoutNear = ContinuousClock.now.advanced(by: readyTimeout - Self.timerSkew)
            try await ServiceRunner.run(
                spec, readiness: readiness, alive: command.alive, stop: stop, gracePeriod: gracePeriod,
                stopTimeout: command.stopTimeout ?? ManifestCommand.defaultStopTimeout,
                onLine: { line in serviceLines.show(line, of: id) },
                onReady: {
                    ready()
                    live.checked(id, "\(readiness.kind) probe passed")
                    live.ready(id)
                },
                onStopped: { ending in processEndings.record(ending, for: id) },
                onNotReady: { sentence in
                    guard ContinuousClock.now >= timeoutNear else { return }
                    processEndings.recordNotReady(sentence, for: id)
                    serviceLines.show("startup: not ready: \(sentence)", of: id)
                },
                onOutput: { bytes in logs?.log(bytes, of: id) },
                onSpawned: { pid in live.spawned(id, pid: pid) },
                onStopping: { live.stopping(id) },
                onCheck: { result in live.checked(id, result) })
        }
    }

    /// The maker of `manifest`'s process specs.
    func specMaker(for manifest: Manifest) -> ProcessSpecMaker {
        ProcessSpecMaker(
            manifest: manifest, environment: environment, environmentFiles: environmentFiles, manifestDirectory: manifestDirectory,
            currentDirectory: currentDirectory,
            output: output != .stream ? .capture : streamsToStandardError ? .descriptor(standardError) : .inherit)
    }
}

extension ShellExecution {
    /// The `stop` line of every command that has one, as lifecycle modules; none when simulating.
    /// A service runs its own `stop` line when its stop cancels it.
    func stopModules(for manifest: Manifest) -> [CommandID: any StoppableModule] {
        guard !simulate else { return [:] }
        var modules: [CommandID: any StoppableModule] = [:]
        var specs = specMaker(for: manifest)
        for command in manifest.commands where !command.isService {
            guard let line = command.stop else { continue }
            let stopLine = StopLine(
                spec: specs.spec(for: command, line: line), stopTimeout: command.stopTimeout ?? ManifestCommand.defaultStopTimeout,
                gracePeriod: gracePeriod)
            modules[command.id] = ShellStopModule(id: command.id, line: stopLine, outputs: outputs)
        }
        return modules
    }

    /// The shutdown's bound of a stop that sets none of its own, a service's: a backstop that never comes before the
    /// service's own bounds, which are its stop line's `stopTimeout` (the longest of the manifest), a grace period
    /// after it for the line, two for the service's processes after the line, and time to reap them.
    func serviceStopBound(for manifest: Manifest) -> Duration {
        let longestLine =
            manifest.commands.lazy.filter(\.isService).map { $0.stopTimeout ?? ManifestCommand.defaultStopTimeout }.max()
            ?? ManifestCommand.defaultStopTimeout
        return longestLine + gracePeriod * 3 + StopLine.reapAllowance
    }
}
