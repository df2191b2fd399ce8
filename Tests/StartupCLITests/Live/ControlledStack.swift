import Foundation

/// A three-service stack (`db`, `api` needing it, `web` needing `api`) run by the built binary in a folder of its
/// own, and the client commands that work on it. Each service appends `NAME start` and, on SIGTERM, `NAME term` to
/// `events.log`, so a test reads the order of starts and stops from the services themselves.
struct ControlledStack {
    let folder: TemporaryDirectory
    let running: StartupBinary.PipedRunning
    /// What the run printed up to its "Services running" line.
    let startUpOutput: String

    /// The service script: its start and its SIGTERM in `events.log`, a ready line, then serving until stopped.
    static let script = """
        name=$1
        echo "$name start" >> events.log
        trap 'echo "$name term" >> events.log; exit 0' TERM
        echo "$name ready"
        while :; do sleep 1 & wait $!; done
        """

    /// The manifest: `restart` is the `db`'s restart policy, and `extra` more commands.
    static func manifest(dbRestart: String? = nil, extra: String = "") -> String {
        """
        {"version": 1, "commands": [
          {"id": "db", "run": "sh svc.sh db", "ready": {"log": "db ready"}\(dbRestart.map { #", "restart": \#($0)"# } ?? "")},
          {"id": "api", "dependencies": ["db"], "run": "sh svc.sh api", "ready": {"log": "api ready"}},
          {"id": "web", "dependencies": ["api"], "run": "sh svc.sh web", "ready": {"log": "web ready"}}\(extra)
        ]}
        """
    }

    /// Starts `startup run` on `manifest` and returns once its services are running.
    static func start(manifest: String = Self.manifest(), arguments: [String] = []) async throws -> ControlledStack {
        let folder = try TemporaryDirectory()
        try folder.write("svc.sh", script)
        try folder.write("commands.json", manifest)
        let running = try StartupBinary.startWithPipedOutput(["run", "--no-report"] + arguments, in: folder.path)
        let output = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        return ControlledStack(folder: folder, running: running, startUpOutput: output)
    }

    /// Runs `startup ARGUMENTS` (a client command) in the stack's folder.
    func client(_ arguments: [String]) async throws -> StartupBinary.Result {
        try await StartupBinary.run(arguments, in: folder.path)
    }

    /// The lines of `events.log` so far.
    var events: [String] {
        ((try? String(contentsOfFile: folder.file("events.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Stops the run with `startup down` and returns the client's result and the run's exit status and output.
    func down() async throws -> (client: StartupBinary.Result, status: Int32, output: String) {
        let client = try await client(["down"])
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        let status = await running.exit.value()
        return (client, status, rest)
    }
}
