import Foundation
import StartupKit

@testable import StartupCLI

/// A control server on a real socket in a fresh folder, serving a ``FakeControlTarget`` for the manifest
/// `commands.json` of that folder; clients run in-process (`StartupTool.main`) or raw.
final class ControlFixture: Sendable {
    let folder: TemporaryDirectory
    let manifest: String
    let target: FakeControlTarget
    let server: ControlServer

    init(target: FakeControlTarget = FakeControlTarget(), configuration: ControlServer.Configuration = ControlServer.Configuration())
        async throws
    {
        folder = try TemporaryDirectory()
        manifest = folder.file("commands.json")
        self.target = target
        server = try await ControlServer.start(manifest: manifest, target: target, environment: [:], configuration: configuration)
    }

    deinit {
        server.close()
    }

    /// `startup SUBCOMMAND ARGUMENTS... --file MANIFEST`, in-process: the exit code, standard output and error.
    func startup(_ arguments: [String]) async -> (code: ExitCode, output: String, error: String) {
        let console = Console.capturing()
        let code = await StartupTool.main(arguments + ["--file", manifest], environment: [:], console: console)
        return (code, console.capturedOutput, console.capturedError)
    }

    /// A raw client: sends `bytes` (then shuts its sending down when `shutsDown`), and returns every line the run
    /// answers until it closes the connection (at most `waiting` long, a generous bound).
    func raw(_ bytes: [UInt8], shutsDown: Bool = false, waiting: Duration = .seconds(60)) async -> [String] {
        let path = server.path
        return await DedicatedThread.result {
            guard case .success(let descriptor) = UnixSocket.connect(to: path.socket) else { return ["(no connection)"] }
            defer { close(descriptor) }
            _ = UnixSocket.sendAll(descriptor, bytes)
            if shutsDown { shutdown(descriptor, Int32(SHUT_WR)) }
            var reader = SocketLineReader(descriptor: descriptor, limit: 1 << 20)
            let deadline = SocketLineReader.now() + UInt64(waiting.components.seconds) * 1_000_000_000
            var lines: [String] = []
            while case .line(let line) = reader.next(deadline: deadline) { lines.append(String(decoding: line, as: UTF8.self)) }
            return lines
        }
    }
}
