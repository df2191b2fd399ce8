import StartupKit
import StartupManifest
import StartupTestSupport
import Testing

/// `"after"` on a command: order-only edges, decoded with the manifest's checks, bound to the
/// library's `after` edges.
@Suite struct ManifestAfterTests {
    private func problems(_ commands: String) -> [String] {
        do {
            _ = try Manifest.decode(Array(#"{"version": 1, "commands": [\#(commands)]}"#.utf8))
            return []
        } catch {
            #expect(error.code == .invalid)
            return error.problems.map(\.description)
        }
    }

    private func manifest(_ commands: String) throws -> Manifest {
        try Manifest.decode(Array(#"{"version": 1, "commands": [\#(commands)]}"#.utf8))
    }

    @Test func decode_readsAfter_apartFromDependencies() throws {
        let manifest = try manifest(
            """
            {"id": "config"}, {"id": "ads", "optional": true},
            {"id": "feed", "dependencies": ["config"], "after": ["ads"]}
            """)
        #expect(manifest.commands[2] == ManifestCommand(id: "feed", dependencies: ["config"], after: ["ads"]))
        #expect(manifest.commands[0].after == [])
    }

    @Test func decode_afterThatIsNotAnArrayOfIDs_namesTheCommandAndTheValue() {
        #expect(
            problems(#"{"id": "a"}, {"id": "b", "after": "a"}, {"id": "c", "after": [1, "a b"]}"#) == [
                #"commands[1] ("b").after: expected an array of command ids, found a string"#,
                #"commands[2] ("c").after[0]: expected a command id (a string), found a number"#,
                #"commands[2] ("c").after[1]: invalid command id "a b": use 1 to 200 characters without spaces or control characters"#,
            ])
    }

    @Test func decode_afterGivenADuration_pointsAtTheReadinessProbe() {
        #expect(
            problems(#"{"id": "db", "run": "./db", "after": "500ms"}"#) == [
                #"commands[0] ("db").after: expected an array of command ids, found a string; "#
                    + #"to wait that long for a service, write "ready": {"after": "500ms"}"#
            ])
    }

    @Test func decode_commandIDsGivenToTheAfterProbe_pointAtTheCommandsAfter() {
        #expect(
            problems(#"{"id": "db", "run": "./db"}, {"id": "api", "run": "./api", "ready": {"after": ["db"]}}"#) == [
                #"commands[1] ("api").ready.after: expected a duration such as "250ms", found an array; "#
                    + #"to run after other commands, give the command itself "after": [ids]"#
            ])
    }

    @Test func decode_unknownAfterID_suggestsTheClosest() {
        #expect(
            problems(#"{"id": "analytics"}, {"id": "feed", "after": ["analytic", "zzz"]}"#) == [
                #"commands[1] ("feed").after[0]: unknown command "analytic" (did you mean "analytics"?)"#,
                #"commands[1] ("feed").after[1]: unknown command "zzz""#,
            ])
    }

    @Test func decode_afterNamingItself_orADependency_isAnError_butNamingOneTwiceIsNot() throws {
        #expect(
            problems(#"{"id": "a"}, {"id": "b", "after": ["b"]}, {"id": "c", "dependencies": ["a"], "after": ["a"]}"#) == [
                #"commands[1] ("b").after[0]: "b" cannot run after itself"#,
                #"commands[2] ("c").after[0]: "a" is also a dependency; keep it in "dependencies" if "c" needs it to succeed, "#
                    + #"or only in "after" if it runs after it whatever its outcome"#,
            ])
        let twice = try manifest(#"{"id": "a"}, {"id": "b", "after": ["a", "a"]}"#)
        #expect(try twice.makePlan(ManifestBinding()).after(of: "b") == ["a"])
    }

    @Test func decode_cycleThroughAfter_isReportedWithTheEdgeThatOrdersIt() {
        #expect(
            problems(#"{"id": "a", "after": ["b"]}, {"id": "b", "dependencies": ["a"]}"#) == [
                #"commands[0] ("a").after: cycle through "after": a -> b -> a ("a" runs after "b"; an after edge orders as a dependency does)"#
            ])
        #expect(
            problems(#"{"id": "a", "dependencies": ["b"]}, {"id": "b", "after": ["a"]}"#) == [
                #"commands[0] ("a").dependencies: cycle through "after": a -> b -> a ("b" runs after "a"; an after edge orders as a dependency does)"#
            ])
    }

    @Test func decode_misspeltAfterKey_suggestsAfter() {
        let found = problems(#"{"id": "a"}, {"id": "b", "runsAfter": ["a"]}"#)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix(#"commands[1] ("b").runsAfter: unknown key "runsAfter" (did you mean "after"?)"#) == true)
    }

    @Test func makePlan_bindsAfterEdges_forEveryKindOfBinding() throws {
        let manifest = try manifest(
            """
            {"id": "ads", "run": "./ads"}, {"id": "closure", "run": "x", "after": ["ads"]},
            {"id": "blocking", "run": "x", "after": ["ads"]}, {"id": "main", "run": "x", "after": ["ads"]},
            {"id": "service", "run": "x", "after": ["ads"]}, {"id": "gate", "after": ["ads"]}, {"id": "milestone", "after": ["ads"]}
            """)
        var binding = ManifestBinding()
        binding.bind("ads") { _ in }
        binding.bind("closure") { _ in }
        binding.bindBlocking("blocking") { _ in }
        binding.bindOnMainActor("main") { _ in }
        binding.bindService("service") { _, ready in ready() }
        binding.bindGate("gate")
        let plan = try manifest.makePlan(binding)
        for id: CommandID in ["closure", "blocking", "main", "service", "gate", "milestone"] {
            #expect(plan.after(of: id) == ["ads"], "\(id)")
            #expect(plan.dependencies(of: id) == [], "\(id)")
        }
    }

    @Test func run_aFailedAfterCommand_skipsNothing_andIsWaitedFor() async throws {
        struct Boom: Error {}
        let manifest = try manifest(
            #"{"id": "ads", "run": "x", "optional": true}, {"id": "feed", "run": "x", "after": ["ads"]}"#)
        var binding = ManifestBinding()
        binding.bind("ads") { _ in throw Boom() }
        binding.bind("feed") { _ in }
        let report = await StartupOrchestrator(try manifest.makePlan(binding)).run()
        #expect(report.status == .succeeded)
        let ads = try #require(report["ads"]?.endOffset)
        let feed = try #require(report["feed"]?.startOffset)
        #expect(report["feed"]?.status == .succeeded && ads <= feed)
        #expect(report["feed"]?.after == ["ads"])
    }

    @Test func selecting_leavesAfterCommandsOutsideTheTargets_andThePlanDoesNotWaitForThem() throws {
        let manifest = try manifest(#"{"id": "ads", "run": "x"}, {"id": "feed", "run": "x", "after": ["ads"]}"#)
        let selected = try manifest.selecting(["feed"])
        #expect(selected.commands.map(\.id) == ["feed"])
        #expect(try selected.makePlan(ManifestBinding().bindingEverything(in: selected)).after(of: "feed") == [])
    }

    /// The article's example (The manifest, "Order-only edges: after"): `feed` runs after a failing
    /// `ads` and succeeds, and the article's error for a misspelt id is the decoder's.
    @Test func theArticlesAfterExample_runsAsItSays() async throws {
        let text = try RepositoryFiles.text("Sources/StartupManifest/StartupManifest.docc/TheManifest.md")
        let blocks = text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let block = try #require(blocks.first { $0.contains(#""after": ["ads"]"#) })
        let manifest = try manifest(block)
        struct Boom: Error {}
        var binding = ManifestBinding()
        binding.bind("ads") { _ in throw Boom() }
        binding.bind("feed") { _ in }
        binding.bind("configuration") { _ in }
        let report = await StartupOrchestrator(try manifest.makePlan(binding)).run()
        #expect(report.status == .succeeded)
        #expect(report["feed"]?.status == .succeeded)
        #expect(try #require(report["ads"]?.endOffset) <= (try #require(report["feed"]?.startOffset)))

        let misspelt = problems(block.replacing(#""after": ["ads"]"#, with: #""after": ["add"]"#))
        #expect(misspelt == [#"commands[1] ("feed").after[0]: unknown command "add" (did you mean "ads"?)"#])
        // The article wraps the message over two lines.
        let flowing = text.replacing("\n", with: " ")
        #expect(flowing.contains("`" + misspelt[0] + "`"))
    }
}

extension ManifestBinding {
    /// This binding with a closure that does nothing bound to every command of `manifest` with a `run` line.
    fileprivate func bindingEverything(in manifest: Manifest) -> ManifestBinding {
        var binding = self
        for command in manifest.commands where command.run != nil { binding.bind(command.id) { _ in } }
        return binding
    }
}
