import StartupSupport
import Testing

@testable import StartupKit
@testable import StartupManifest

@Suite struct ManifestBindingTests {
    private let manifest = try! Manifest.decode(
        Array(
            """
            {"version": 1, "commands": [
              {"id": "configuration", "run": "./configure"},
              {"id": "database", "dependencies": ["configuration"], "run": "./db", "retries": 2},
              {"id": "ready", "dependencies": ["database"]}
            ]}
            """.utf8))

    struct Configuration: StartupCommand {
        static let id: CommandID = "configuration"
        func execute(_ context: StartupContext) async throws -> String { "postgres://db" }
    }

    @Test func makePlan_runsBoundImplementationsWithManifestGraphAndOptions() async throws {
        let seen = Locked<String?>(nil)
        var binding = ManifestBinding()
        binding.bind(Configuration())
        binding.bind("database") { context in
            let url = try context.output(of: Configuration.self)
            seen.withLock { $0 = url }
        }
        let plan = try manifest.makePlan(binding)
        #expect(plan.dependencies(of: "database") == ["configuration"])
        #expect(plan.options(of: "database").retry.maxRetries == 2)
        let report = await StartupOrchestrator(plan).run()
        #expect(report.status == .succeeded)
        #expect(seen.withLock { $0 } == "postgres://db")
        #expect(report["ready"]?.status.isSuccess == true)
    }

    @Test func makePlan_whenRunLineUnbound_orBindingUnknown_namesThem() {
        var binding = ManifestBinding()
        binding.bind("configuration") { _ in }
        binding.bind("databse") { _ in }
        #expect {
            _ = try manifest.makePlan(binding)
        } throws: { error in
            (error as? ManifestError)?.problems.map(\.description) == [
                #"a Swift implementation is bound to "databse", which the manifest does not have"#,
                #"commands[1] ("database"): no Swift implementation is bound to it"#,
            ]
        }
    }

    struct Theme: MainActorStartupCommand {
        static let id: CommandID = "theme"
        var options: CommandOptions { CommandOptions(priority: .low) }
        @MainActor func execute(_ context: StartupContext) async throws -> String {
            MainActor.assertIsolated()
            return "dark"
        }
    }

    @Test func makePlan_runsMainActorCommandsAndClosuresOnTheMainActor_withTheManifestsOptions() async throws {
        let screen = try Manifest.decode(
            Array(
                """
                {"version": 1, "commands": [
                  {"id": "theme", "run": "./theme", "priority": "high"},
                  {"id": "first-screen", "dependencies": ["theme"], "run": "./screen"}
                ]}
                """.utf8))
        var binding = ManifestBinding()
        binding.bind(Theme())
        binding.bindOnMainActor("first-screen") { context in
            MainActor.assertIsolated()
            return try context.output(of: Theme.self) + " screen"
        }
        let plan = try screen.makePlan(binding)
        #expect(plan.options(of: "theme").priority == .high)
        let report = await StartupOrchestrator(plan).run()
        #expect(report.status == .succeeded)
        #expect(report.commands.map(\.id) == ["theme", "first-screen"])
    }

    @Test func makePlan_addsAMilestoneBoundToAGateAsAGate_thatSucceedsOnlyOnceOpened() async throws {
        var binding = ManifestBinding()
        binding.bind("configuration") { _ in }
        binding.bind("database") { _ in }
        binding.bindGate("ready")
        let plan = try manifest.makePlan(binding)
        #expect(plan.dependencies(of: "ready") == ["database"])
        let run = StartupOrchestrator(plan).start()
        try await run.wait(for: ["database"])
        // Its dependencies have succeeded, and yet it holds until the app opens it.
        let error = await #expect(throws: StartupWaitError.self) { try await run.wait(for: ["ready"], timeout: .zero) }
        #expect(
            error?.reason
                == .timedOut(
                    after: .zero,
                    holdUps: [
                        StartupWaitError.HoldUp(
                            command: "ready", blockers: [StartupWaitError.Blocker(command: "ready", state: .gateNotOpened, through: [])])
                    ]))
        run.open("ready")
        let report = await run.report()
        #expect(report["ready"]?.status == .succeeded)
    }

    @Test func makePlan_whenAGateIsBoundToACommandWithWork_orOnDemand_orUnknown_namesThem() {
        let gates = try! Manifest.decode(
            Array(
                """
                {"version": 1, "commands": [
                  {"id": "configuration", "run": "./configure"},
                  {"id": "first-frame", "onDemand": true}
                ]}
                """.utf8))
        var binding = ManifestBinding()
        binding.bindGate("configuration")
        binding.bindGate("first-frame")
        binding.bindGate("idle")
        #expect {
            _ = try gates.makePlan(binding)
        } throws: { error in
            (error as? ManifestError)?.problems.map(\.description) == [
                #"a gate is bound to "idle", which the manifest does not have"#,
                #"commands[0] ("configuration"): bound to a gate, but a gate has no work: leave "run" out, or bind an implementation"#,
                #"commands[1] ("first-frame"): bound to a gate, but gates are eager: leave "onDemand" out"#,
            ]
        }
    }

    @Test func makePlan_escapesControlCharactersInTheIdsItNames() {
        var binding = ManifestBinding()
        binding.bind("configuration") { _ in }
        binding.bind("database") { _ in }
        binding.bind("db\u{1B}[31m") { _ in }
        #expect {
            _ = try manifest.makePlan(binding)
        } throws: { error in
            (error as? ManifestError)?.problems.map(\.description)
                == [#"a Swift implementation is bound to "db\u001B[31m", which the manifest does not have"#]
        }
    }
}
