import Foundation
import Testing

/// `startup run ID...` and `startup plan ID...` (only the targets and what they need), on-demand
/// commands and the plan's warnings, through the built binary.
@Suite struct TargetsEndToEndTests {
    /// Each command leaves a file named after its id when it runs, so a test sees what ran.
    /// `search-index` is on demand and nothing needs it; `image-cache` is on demand and the eager
    /// `first-screen` needs it; `upload` is required and depends on the optional `analytics`.
    static let manifest = """
        {"version": 1, "commands": [
          {"id": "configuration", "run": "touch configuration.ran", "estimate": "20ms"},
          {"id": "logging", "dependencies": ["configuration"], "run": "touch logging.ran", "estimate": "10ms"},
          {"id": "database", "dependencies": ["configuration"], "run": "touch database.ran", "estimate": "50ms"},
          {"id": "analytics", "dependencies": ["logging"], "run": "touch analytics.ran", "optional": true},
          {"id": "upload", "dependencies": ["analytics"], "run": "touch upload.ran"},
          {"id": "search-index", "dependencies": ["database"], "run": "touch search-index.ran", "onDemand": true},
          {"id": "image-cache", "dependencies": ["configuration"], "run": "touch image-cache.ran", "onDemand": true},
          {"id": "first-screen", "dependencies": ["database", "image-cache"], "run": "touch first-screen.ran"}
        ]}
        """

    private func folderWithManifest() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", Self.manifest)
        return folder
    }

    /// The commands of a `--format json` report (run or plan), as id and status (`nil` for plans).
    private func commands(in output: String) throws -> [(id: String, status: String?)] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let commands = try #require(json["commands"] as? [[String: Any]])
        return try commands.map { (try #require($0["id"] as? String), $0["status"] as? String) }
    }

    private func ran(in folder: TemporaryDirectory) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ran") }.map { String($0.dropLast(4)) })
    }

    @Test func run_withTargets_runsExactlyTheTargetsAndWhatTheyNeed() async throws {
        let folder = try folderWithManifest()
        let result = try await StartupBinary.run(
            ["run", "--format", "json", "--no-report", "upload", "database", "upload"], in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        let report = try commands(in: result.output)
        #expect(report.map(\.id) == ["configuration", "logging", "database", "analytics", "upload"])
        #expect(report.allSatisfy { $0.status == "succeeded" })
        #expect(try ran(in: folder) == ["configuration", "logging", "database", "analytics", "upload"])
    }

    @Test func run_withATargetThatIsOnDemand_runsItAndWhatItNeeds_textAndSimulated() async throws {
        let folder = try folderWithManifest()
        let result = try await StartupBinary.run(["run", "--no-report", "search-index"], in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("3 succeeded"))
        #expect(!result.output.contains("first-screen"))
        #expect(try ran(in: folder) == ["configuration", "database", "search-index"])

        let simulated = try await StartupBinary.run(
            ["run", "--simulate", "--format", "json", "--no-report", "search-index"], in: folder.path)
        #expect(simulated.status == 0, "\(simulated.error)")
        #expect(try commands(in: simulated.output).map(\.id) == ["configuration", "database", "search-index"])
    }

    @Test func run_withoutTargets_leavesAnOnDemandCommandNobodyNeedsNotRequested_andExits0() async throws {
        let folder = try folderWithManifest()
        let result = try await StartupBinary.run(["run", "--format", "json", "--no-report"], in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        let statuses = Dictionary(uniqueKeysWithValues: try commands(in: result.output).map { ($0.id, $0.status) })
        #expect(statuses.count == 8)
        #expect(statuses["search-index"] == "notRequested")
        // On demand, but the eager first-screen needs it: it runs.
        #expect(statuses["image-cache"] == "succeeded")
        #expect(statuses["first-screen"] == "succeeded")
        #expect(try ran(in: folder) == ["configuration", "logging", "database", "analytics", "upload", "image-cache", "first-screen"])
    }

    @Test func plan_withTargets_plansOnlyThem_inTextAndJSON() async throws {
        let folder = try folderWithManifest()
        let text = try await StartupBinary.run(["plan", "first-screen"], in: folder.path)
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.hasPrefix("Plan for commands.json, target first-screen: 4 of 8 commands in 3 waves\n"))
        for absent in ["logging", "analytics", "upload", "search-index", "(on demand)", "Warnings:"] {
            #expect(!text.output.contains(absent), "\(absent) in \(text.output)")
        }

        let json = try await StartupBinary.run(["plan", "--format", "json", "search-index", "logging"], in: folder.path)
        #expect(json.status == 0, "\(json.error)")
        #expect(try commands(in: json.output).map(\.id) == ["configuration", "logging", "database", "search-index"])
    }

    @Test(arguments: [["run"], ["plan"], ["run", "--simulate"]])
    func unknownTarget_exits64_namingItWithTheClosestId_andRunsNothing(arguments: [String]) async throws {
        let folder = try folderWithManifest()
        let result = try await StartupBinary.run(arguments + ["first-scren", "database", "nothing-like-it"], in: folder.path)
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(
            result.error == """
                error: unknown target "first-scren" (did you mean "first-screen"?)
                error: unknown target "nothing-like-it"
                Usage: see startup \(arguments[0]) --help

                """)
        #expect(try ran(in: folder).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file(".startup")))
    }

    @Test func plan_marksOnDemandCommands_andPrintsWarnings_inTextAndJSON_exiting0() async throws {
        let folder = try folderWithManifest()
        let text = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(text.status == 0, "\(text.error)")
        let lines = text.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.filter { $0.hasSuffix("(on demand)") }.map { $0.split(separator: " ").first { $0 != "*" } }
                == ["image-cache", "search-index"])  // By wave.
        let warnings = try #require(lines.firstIndex(of: "Warnings:"))
        #expect(
            Array(lines[(warnings + 1)...]) == [
                #"  "upload" is required but depends on "analytics", which is optional: if "analytics" fails, "upload" is skipped and the run fails"#,
                #"  "image-cache" is on demand but the eager "first-screen" depends on it, so it always runs"#,
                "",
            ])

        let json = try await StartupBinary.run(["plan", "--format", "json"], in: folder.path)
        #expect(json.status == 0, "\(json.error)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let commands = try #require(plan["commands"] as? [[String: Any]])
        #expect(commands.filter { $0["onDemand"] as? Bool == true }.map { $0["id"] as? String } == ["search-index", "image-cache"])
        #expect(commands.allSatisfy { $0["onDemand"] is Bool })
        #expect((plan["warnings"] as? [String])?.count == 2)
        #expect((plan["warnings"] as? [String])?.first == lines[warnings + 1].dropFirst(2).description)
    }
}
