@testable import StartupKit
import Testing
@testable import StartupManifest

@Suite struct ManifestBindingTests {
    private let manifest = try! Manifest.decode(Array("""
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
}
