import Testing

@testable import StartupKit

/// The README's library tour, compiled and run, so the README stays true.
@Suite struct ReadmeExampleTests {
    struct AppConfig: Sendable {
        let databaseURL: String
        var analyticsURL: String { "https://analytics.example" }
        static func load() async throws -> AppConfig { AppConfig(databaseURL: "postgres://db") }
    }

    struct DatabasePool: Sendable {
        let url: String
        static func open(_ url: String) async throws -> DatabasePool { DatabasePool(url: url) }
    }

    struct Configuration: StartupCommand {
        static let id: CommandID = "configuration"
        func execute(_ context: StartupContext) async throws -> AppConfig {
            try await AppConfig.load()
        }
    }

    struct Database: StartupCommand {
        static let id: CommandID = "database"
        let dependencies: [CommandID] = [Configuration.id]
        var options: CommandOptions { CommandOptions(timeout: .seconds(5), retry: .retry(times: 2)) }
        func execute(_ context: StartupContext) async throws -> DatabasePool {
            let config = try context.output(of: Configuration.self)
            return try await DatabasePool.open(config.databaseURL)
        }
    }

    struct FirstScreen: MainActorStartupCommand {
        static let id: CommandID = "first-screen"
        let dependencies: [CommandID] = [Database.id]
        @MainActor func execute(_ context: StartupContext) async throws {
            _ = try context.output(of: Database.self)
        }
    }

    @Test func tour_runsAsTheReadmeSays() async throws {
        var builder = StartupPlanBuilder()
        builder.add(Configuration())
        builder.add(Database())
        builder.add(FirstScreen())
        builder.add(
            "analytics", dependsOn: ["configuration"],
            options: CommandOptions(priority: .low, isOptional: true)
        ) { _ in }
        let plan = try builder.build()

        let report = await StartupOrchestrator(plan, options: .init(maxConcurrency: 8)).run()
        #expect(report.status == .succeeded)
        #expect(report.commands.map(\.id) == ["configuration", "database", "first-screen", "analytics"])
        #expect(report.criticalPath.first == "configuration")
        #expect(report["analytics"]!.slack >= .zero)
    }
}
