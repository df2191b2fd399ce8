import StartupKit
import Testing

/// The README's "Services" block, compiled and run as written (but for the wait's bound), with a
/// pool and a server that serve until cancelled.
extension ReadmeExampleTests {
    struct HTTPServer: Sendable {
        let pool: DatabasePool
        static func bind(pool: DatabasePool) async throws -> HTTPServer { HTTPServer(pool: pool) }
        func run() async throws { try await Task.sleep(for: .seconds(3_600)) }
    }

    struct DatabaseService: StartupService {
        static let id: CommandID = "database"
        let dependencies: [CommandID] = [Configuration.id]
        var options: CommandOptions { CommandOptions(timeout: .seconds(5), stopTimeout: .seconds(2)) }
        func run(_ context: StartupContext, ready: ReadySignal<DatabasePool>) async throws {
            let pool = try await DatabasePool.open(try context.output(of: Configuration.self).databaseURL)
            ready(pool)  // "api" starts now and reads `pool`
            try await pool.serveUntilCancelled()  // until shutdown cancels it
        }
    }

    @Test func readmeServices_areReadyForTheirDependents_andStopInReverseOrder() async throws {
        var builder = StartupPlanBuilder()
        builder.add(Configuration())
        builder.add(DatabaseService())
        builder.addService("api", dependsOn: ["database"]) { context, ready in
            let server = try await HTTPServer.bind(pool: try context.output(of: "database", as: DatabasePool.self))
            ready()
            try await server.run()
        }
        let run = StartupOrchestrator(try builder.build()).start()
        // The README bounds this wait by 5s; a loaded machine under the thread sanitizer can take
        // longer, and tests assert outcomes, not timings.
        try await run.wait(for: ["api"], timeout: .seconds(3_600))  // ready to take traffic
        let stopped = await run.shutdown()  // api, then database, each within its stop timeout
        #expect(stopped.status == .succeeded)
        #expect(stopped.stopOrder == ["api", "database"])
    }
}

extension ReadmeExampleTests.DatabasePool {
    /// Serves until the task is cancelled.
    func serveUntilCancelled() async throws {
        try await Task.sleep(for: .seconds(3_600))
    }
}
