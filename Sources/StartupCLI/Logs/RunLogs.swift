import StartupKit
import StartupReporting
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `startup run --log-dir DIR`: each command's and service's output, byte for byte, both streams in the order they
/// came, appended to `DIR/ID.log` (the id escaped as ``LogFileName`` says), after a header line for each start
/// (``LogHeader``).
///
/// Why a pipe: a logged command's standard output and error are one pipe (one pipe keeps the order in which the two
/// streams were written, which two pipes could not tell), which one thread reads for the whole run (``OutputPump``):
/// it hands each chunk to the logs' writer thread (``LogWriter``) and keeps the last 64 KiB for the summary, as a
/// capture file does for a command that is not logged. So a command never waits for the disk (a slow disk delays
/// only the logs, whose parts wait in memory), and nothing is written on the scheduler's thread. Handing the child
/// the log file itself would save the copy, but a slow disk would then slow the command; and the capture file cannot
/// be the log's source, since it is trimmed to its tail while the command runs. A service's output already comes
/// through a pipe that a reader of its own reads (``ServiceOutputReader``): that reader hands each chunk to the writer
/// as well. Without `--log-dir` none of this exists, and a command runs as it does without logs.
///
/// With `--output stream`, a logged command's output reaches the terminal through the pump: both streams on standard
/// output (on standard error with `--format json`).
final class RunLogs: Sendable {
    /// The folder, as the user wrote it (relative to the current directory).
    let folder: String
    private let writer: LogWriter
    private let pump: OutputPump

    /// The logs of a run in `folder` (as the user wrote it); a log that cannot be written is named on `console`'s
    /// standard error, once.
    init(folder: String, console: Console) {
        self.folder = folder
        writer = LogWriter(folder: folder) { console.warning($0) }
        pump = OutputPump(writer: writer)
    }

    /// Makes the folder and its missing parents, and checks that logs can be made in it.
    ///
    /// - Throws: ``ExitCode/cannotCreate`` (73), after saying why, when it cannot be made or written to.
    func makeFolder(console: Console) throws(ExitCode) {
        let shown = MessageQuoting.escaped(folder)
        if let failure = FileOperations.makeFolders(folder) {
            let reason =
                failure.code == ENOTDIR
                ? "\(MessageQuoting.escaped(failure.folder)) is not a folder" : errnoDescription(failure.code)
            console.error("cannot create the log folder \(shown): \(reason)")
            throw .cannotCreate
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            console.error("cannot write to the log folder \(shown): \(errnoDescription(errno))")
            throw .cannotCreate
        }
    }

    /// Runs `spec` for `id`'s attempt `attempt` as ``ProcessSpawner/run(_:terminationGracePeriod:signalsWhenStopped:)``
    /// does, its output logged: a header first, then its standard output and error through a pipe the pump reads,
    /// and on where `spec` sends them (kept, for `.capture`: the outcome's `output` is their tail, as a capture
    /// file's would be; written to the descriptor for `.inherit` and `.descriptor`). A pipe that cannot be made
    /// gives the log up, with a warning, and the command runs as if it were not logged.
    func run(
        _ spec: ProcessSpec, of id: CommandID, attempt: Int, terminationGracePeriod: Duration, onSpawned: (@Sendable (Int32) -> Void)? = nil
    ) async -> ProcessOutcome {
        writer.submit(.header(id, LogHeader(.attempt(attempt))))
        let forward: Int32? =
            switch spec.output {
            case .inherit: STDOUT_FILENO
            case .descriptor(let descriptor): descriptor
            case .capture, .discard: nil
            }
        let keepsTail = spec.output == .capture
        guard let pipe = makeCloseOnExecPipe(nonBlockingRead: true) else {
            writer.submit(.unlogged(id, reason: "cannot make a pipe for its output: \(errnoDescription(errno))"))
            return await ProcessSpawner.run(spec, terminationGracePeriod: terminationGracePeriod, onSpawned: onSpawned)
        }
        guard let token = pump.add(pipe.read, for: id, forwardingTo: forward, keepsTail: keepsTail) else {
            _ = closeDescriptor(pipe.read)
            _ = closeDescriptor(pipe.write)
            writer.submit(.unlogged(id, reason: "its output cannot be read"))
            return await ProcessSpawner.run(spec, terminationGracePeriod: terminationGracePeriod, onSpawned: onSpawned)
        }
        var logged = spec
        logged.output = .descriptor(pipe.write)
        var outcome = await ProcessSpawner.run(logged, terminationGracePeriod: terminationGracePeriod, onSpawned: onSpawned)
        _ = closeDescriptor(pipe.write)
        let tail = await pump.drain(token)
        if keepsTail {
            outcome.output = tail.bytes
            outcome.outputTruncated = tail.isTruncated
        }
        return outcome
    }

    /// Logs the start of a service, as `context` says: an attempt, or a restart (its header).
    func logStart(of id: CommandID, _ context: StartupContext) {
        writer.submit(.header(id, LogHeader(context.restart > 0 ? .restart(context.restart) : .attempt(context.attempt))))
    }

    /// Logs output of `id` (a service's, as its reader reads it).
    func log(_ bytes: ArraySlice<UInt8>, of id: CommandID) {
        writer.submit(.output(id, Array(bytes)))
    }

    /// Reads what is left in the commands' pipes, and returns once everything is written and the logs are closed.
    /// Called once, at the end of the run.
    func finish() async {
        await pump.close()
        await writer.finish()
    }
}
