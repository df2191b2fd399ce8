import Foundation
import StartupKit
import StartupManifest
import Testing

/// The README's "One manifest for the app and the CLI" block, run as written on a manifest with
/// its ids.
@Suite struct ManifestReadmeExampleTests {
    struct DatabasePool: Sendable {
        static func open(_ url: String) async throws -> DatabasePool { DatabasePool() }
    }

    enum Theme {
        @MainActor static func apply() { MainActor.assertIsolated() }
    }

    struct Configuration: StartupCommand {
        static let id: CommandID = "configuration"
        func execute(_ context: StartupContext) async throws -> String { "postgres://db" }
    }

    struct FirstScreen: MainActorStartupCommand {
        static let id: CommandID = "first-screen"
        @MainActor func execute(_ context: StartupContext) async throws {
            _ = try context.output(of: "database", as: DatabasePool.self)
        }
    }

    @Test func oneManifestForTheAppAndTheCLI_bindsAsTheReadmeSays() async throws {
        let manifest = try Manifest.decode(
            Array(
                """
                {"version": 1, "commands": [
                  {"id": "configuration", "run": "./configure"},
                  {"id": "database", "dependencies": ["configuration"], "run": "./db"},
                  {"id": "theme", "run": "./theme", "onDemand": true},
                  {"id": "first-screen", "dependencies": ["database", "theme"], "run": "./screen"},
                  {"id": "first-frame", "dependencies": ["first-screen"]}
                ]}
                """.utf8))
        var binding = ManifestBinding()
        binding.bind(Configuration())  // the manifest gives graph and options
        binding.bind("database") { context in try await DatabasePool.open(try context.output(of: Configuration.self)) }
        binding.bind(FirstScreen())  // a MainActorStartupCommand
        binding.bindOnMainActor("theme") { context in Theme.apply() }  // a closure on the main actor
        binding.bindGate("first-frame")  // a milestone the app opens with run.open
        let plan = try manifest.makePlan(binding)  // commands without "run" are milestones

        #expect(plan.options(of: "theme").activation == .onDemand)
        #expect(plan.dependencies(of: "first-frame") == ["first-screen"])
        let report = await StartupOrchestrator(plan).run()
        #expect(report.status == .succeeded)
        #expect(report.commands.allSatisfy { $0.status == .succeeded })
    }
}
