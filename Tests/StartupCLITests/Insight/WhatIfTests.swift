import Foundation
import StartupKit
import StartupManifest
import StartupSeededRandom
import Testing

@testable import StartupCLI

/// `startup plan --what-if`: the syntax, the graph it makes, and its predictions checked against
/// `StartupPlan.predictedWallTime` on graphs the tests build themselves.
@Suite struct WhatIfTests {
    // MARK: - Syntax

    @Test func parse_readsEveryVerb() throws {
        let changes = try WhatIfSyntax.parse(
            " drop=search-index, analytics ; scale=database:0.5,cache:50%; set=theme:80ms;defer=a; detach=b; cut=auth->router ")
        #expect(
            changes == [
                .drop("search-index"), .drop("analytics"), .scale("database", factor: 0.5), .scale("cache", factor: 0.5),
                .setDuration("theme", .milliseconds(80)), .detach("a"), .detach("b"), .cut(dependency: "auth", dependent: "router"),
            ])
        #expect(
            changes.map(\.description).joined(separator: "; ")
                == "drop=search-index; drop=analytics; scale=database:0.5; scale=cache:0.5; set=theme:80ms; detach=a; detach=b; cut=auth->router"
        )
    }

    @Test(arguments: [
        ("speedup=database", #"unknown change "speedup""#),
        ("scael=database:2", #"unknown change "scael" (did you mean "scale"?)"#),
        ("drop", #"cannot read "drop""#),
        ("drop=", #""drop=" names no command"#),
        ("scale=database", #"scale needs ID:VALUE, such as scale=database:0.5, not "database""#),
        ("scale=database:fast", #"invalid factor "fast" in "database:fast""#),
        ("set=database:80", #"invalid duration "80" in "database:80": write a non-negative number with a unit"#),
        ("cut=database", "cut needs DEPENDENCY->DEPENDENT"),
        (" ; ", "no changes given"),
    ])
    func parse_rejectsWithAMessage(text: String, message: String) {
        do {
            _ = try WhatIfSyntax.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    // MARK: - The changed graph

    private let manifest = Manifest(commands: [
        ManifestCommand(id: "config", run: "true", estimate: .milliseconds(50)),
        ManifestCommand(id: "flags", dependencies: ["config"], run: "true", estimate: .milliseconds(120)),
        ManifestCommand(id: "database", dependencies: ["config"], run: "true", estimate: .milliseconds(150)),
        ManifestCommand(id: "session", dependencies: ["database", "flags"], run: "true", estimate: .milliseconds(60)),
        ManifestCommand(id: "router", dependencies: ["flags", "session"], run: "true", estimate: .milliseconds(20)),
        ManifestCommand(id: "screen", dependencies: ["router"], run: "true", estimate: .milliseconds(60)),
    ])

    private func plan(_ commands: [(CommandID, Int, [CommandID])]) throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        for (id, milliseconds, dependencies) in commands {
            builder.add(id, dependsOn: dependencies, options: CommandOptions(estimate: .milliseconds(milliseconds))) { _ in }
        }
        return try builder.build()
    }

    private func predicted(_ changes: [WhatIfChange], jobs: Int? = nil) throws -> Duration {
        let scenario = try WhatIfScenario.apply(changes, to: manifest)
        return try scenario.manifest.makePlan(ManifestLoading.graphOnly(scenario.manifest)).predictedWallTime(slots: jobs)
    }

    @Test func apply_dropRewiresDependents_detachAndCutRemoveEdges() throws {
        let dropped = try WhatIfScenario.apply([.drop("session")], to: manifest)
        #expect(dropped.manifest.commands.map(\.id) == ["config", "flags", "database", "router", "screen"])
        #expect(dropped.manifest.commands[3].dependencies == ["flags", "database"])
        #expect(dropped.steps[0].summary == "drop session (60ms); router now waits for its dependencies instead")
        let detached = try WhatIfScenario.apply([.detach("flags")], to: manifest)
        #expect(
            detached.manifest.commands.map(\.dependencies) == [
                [], ["config"], ["config"], ["database", "config"], ["session", "config"], ["router"],
            ])
        #expect(detached.steps[0].summary == "detach flags: session, router no longer wait for it")
        let cut = try WhatIfScenario.apply([.cut(dependency: "session", dependent: "router")], to: manifest)
        #expect(cut.manifest.commands[4].dependencies == ["flags"])
    }

    @Test func apply_rejectsUnknownDroppedAndMissingEdges() {
        let cases: [([WhatIfChange], String)] = [
            ([.drop("databse")], #""drop=databse": unknown command "databse" (did you mean "database"?)"#),
            ([.drop("flags"), .scale("flags", factor: 2)], #""scale=flags:2": "flags" was already dropped by an earlier change"#),
            (
                [.cut(dependency: "screen", dependent: "config")],
                #""cut=screen->config": "config" neither depends on nor runs after "screen""#
            ),
        ]
        for (changes, message) in cases {
            do {
                _ = try WhatIfScenario.apply(changes, to: manifest)
                Issue.record("accepted \(changes)")
            } catch {
                #expect(error.message == message)
            }
        }
    }

    @Test func predictions_matchThePlanOfTheChangedGraph() throws {
        // Unchanged: config 50 -> database 150 -> session 60 -> router 20 -> screen 60 = 340ms.
        #expect(try predicted([.scale("database", factor: 1)]) == .milliseconds(340))
        // database at half: the flags chain (50 + 120 + 60 + 20 + 60 = 310) takes over.
        let halved = try plan([
            ("config", 50, []), ("flags", 120, ["config"]), ("database", 75, ["config"]),
            ("session", 60, ["database", "flags"]), ("router", 20, ["flags", "session"]), ("screen", 60, ["router"]),
        ])
        #expect(try predicted([.scale("database", factor: 0.5)]) == halved.predictedWallTime())
        #expect(halved.predictedWallTime() == .milliseconds(310))
        // Detach session: router waits for flags and database instead of session.
        let detached = try plan([
            ("config", 50, []), ("flags", 120, ["config"]), ("database", 150, ["config"]),
            ("session", 60, ["database", "flags"]), ("router", 20, ["flags", "database"]), ("screen", 60, ["router"]),
        ])
        #expect(try predicted([.detach("session")]) == detached.predictedWallTime())
        #expect(try predicted([.detach("session")], jobs: 1) == detached.predictedWallTime(slots: 1))
        // Cut session -> router, then set router to 5ms.
        let cut = try plan([
            ("config", 50, []), ("flags", 120, ["config"]), ("database", 150, ["config"]),
            ("session", 60, ["database", "flags"]), ("router", 5, ["flags"]), ("screen", 60, ["router"]),
        ])
        let changes: [WhatIfChange] = [.cut(dependency: "session", dependent: "router"), .setDuration("router", .milliseconds(5))]
        for jobs in [nil, 1, 2] {
            #expect(try predicted(changes, jobs: jobs) == cut.predictedWallTime(slots: jobs))
        }
    }

    /// `config 50 -> ads 200`, `feed 30` runs after `ads`, `screen 20` depends on `config` and
    /// `feed`: the after edge puts `ads` on the path to the screen.
    private let ordered = Manifest(commands: [
        ManifestCommand(id: "config", run: "true", estimate: .milliseconds(50)),
        ManifestCommand(id: "ads", dependencies: ["config"], after: ["consent"], run: "true", estimate: .milliseconds(200)),
        ManifestCommand(id: "consent", run: "true", estimate: .milliseconds(10)),
        ManifestCommand(id: "feed", after: ["ads"], run: "true", estimate: .milliseconds(30)),
        ManifestCommand(id: "screen", dependencies: ["config", "feed"], run: "true", estimate: .milliseconds(20)),
    ])

    private func predicted(_ changes: [WhatIfChange], on manifest: Manifest) throws -> (WhatIfScenario, Duration) {
        let scenario = try WhatIfScenario.apply(changes, to: manifest)
        return (scenario, try scenario.manifest.makePlan(ManifestLoading.graphOnly(scenario.manifest)).predictedWallTime())
    }

    @Test func predictions_followAfterEdges_andChangesRewireThem() throws {
        // config 50 -> ads 200 -> feed 30 -> screen 20.
        #expect(try predicted([.scale("ads", factor: 1)], on: ordered).1 == .milliseconds(300))
        // Cutting the after edge leaves config 50 -> screen 20 and feed 30 -> screen.
        let (cut, cutTime) = try predicted([.cut(dependency: "ads", dependent: "feed")], on: ordered)
        #expect(cut.manifest.commands[3].after == [])
        #expect(cutTime == .milliseconds(250))
        // Dropping ads: feed runs after what ads waited for (config, consent), as after edges.
        let (dropped, droppedTime) = try predicted([.drop("ads")], on: ordered)
        #expect(dropped.manifest.commands.first { $0.id == "feed" }?.after == ["config", "consent"])
        #expect(dropped.manifest.commands.first { $0.id == "feed" }?.dependencies == [])
        #expect(droppedTime == .milliseconds(100))
        // Detaching consent: ads inherits nothing (consent waited for nothing), and still depends on config.
        let (detached, _) = try predicted([.detach("consent")], on: ordered)
        #expect(detached.manifest.commands[1].after == [] && detached.manifest.commands[1].dependencies == ["config"])
        // Dropping config: ads and screen lose the dependency (config waited for nothing).
        let (noConfig, _) = try predicted([.drop("config")], on: ordered)
        #expect(noConfig.manifest.commands.map(\.dependencies) == [[], [], [], ["feed"]])
        // Dropping feed: screen, which depended on it, runs after ads as feed did: 50 + 200 + 20.
        let (noFeed, noFeedTime) = try predicted([.drop("feed")], on: ordered)
        #expect(noFeed.manifest.commands[3].dependencies == ["config"] && noFeed.manifest.commands[3].after == ["ads"])
        #expect(noFeedTime == .milliseconds(270))
    }

    /// Dropping a command, with unlimited slots, is the same as its taking no time: checked on
    /// random graphs against the original plan's own simulation with those durations.
    @Test(arguments: 0..<30)
    func predictions_dropAndScale_matchTheOriginalPlanWithThoseDurations(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var commands: [ManifestCommand] = []
        for index in 0..<20 {
            let dependencies =
                index == 0
                ? []
                : Array(
                    Set(
                        (0..<Int(generator.next() % 3)).map { _ in
                            CommandID("c\(Int(generator.next() % UInt64(index)))")
                        })
                ).sorted()
            commands.append(
                ManifestCommand(
                    id: CommandID("c\(index)"), dependencies: dependencies, run: "true",
                    estimate: .milliseconds(Int(1 + generator.next() % 100))))
        }
        let original = Manifest(commands: commands)
        var changes: [WhatIfChange] = []
        var durations: [CommandID: Duration] = [:]
        var dropped: Set<CommandID> = []
        for _ in 0..<3 {
            let command = commands[Int(generator.next() % 20)]
            guard !dropped.contains(command.id) else { continue }
            switch generator.next() % 3 {
            case 0:
                changes.append(.drop(command.id))
                dropped.insert(command.id)
                durations[command.id] = .zero
            case 1:
                changes.append(.scale(command.id, factor: 0.5))
                durations[command.id] = (durations[command.id] ?? command.estimate!) / 2
            default:
                changes.append(.setDuration(command.id, .milliseconds(7)))
                durations[command.id] = .milliseconds(7)
            }
        }
        let scenario = try WhatIfScenario.apply(changes, to: original)
        let changed = try scenario.manifest.makePlan(ManifestLoading.graphOnly(scenario.manifest))
        let baseline = try original.makePlan(ManifestLoading.graphOnly(original))
        #expect(changed.predictedWallTime() == baseline.predictedWallTime(durations: durations), "\(changes)")
        #expect(changed.count == 20 - dropped.count)
    }

    // MARK: - Output

    @Test func tool_textAndJSON() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "config", "run": "true", "estimate": "50ms"},
              {"id": "flags", "dependencies": ["config"], "run": "true", "estimate": "120ms"},
              {"id": "database", "dependencies": ["config"], "run": "true", "estimate": "150ms"},
              {"id": "session", "dependencies": ["database", "flags"], "run": "true", "estimate": "60ms"}
            ]}
            """)
        let console = Console.capturing()
        var code = await StartupTool.main(
            ["plan", "-f", file, "--what-if", "scale=database:0.5", "--what-if", "drop=session"], environment: [:], console: console)
        #expect(code == .success)
        #expect(
            console.capturedOutput == """
                What if, for \(file) (by estimates, unlimited jobs):
                  scale database by 0.5: 150ms -> 75ms
                  drop session (60ms)

                Predicted wall time: 260ms -> 170ms (-90ms, -34.6%)
                Critical path before (260ms): config 50ms -> database 150ms -> session 60ms
                Critical path after  (170ms): config 50ms -> flags 120ms

                """)
        let json = Console.capturing()
        code = await StartupTool.main(
            ["plan", "-f", file, "--what-if", "scale=database:0.5", "--format", "json", "-j", "1"], environment: [:], console: json)
        #expect(code == .success)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.capturedOutput.utf8)) as? [String: Any])
        #expect(object["predictedWallMs"] as? Double == 305)
        let whatIf = try #require(object["whatIf"] as? [String: Any])
        #expect((whatIf["baseline"] as? [String: Any])?["predictedWallMs"] as? Double == 380)
        #expect(whatIf["predictedWallChangeMs"] as? Double == -75)
        #expect(((whatIf["changes"] as? [[String: Any]])?.first)?["change"] as? String == "scale=database:0.5")
        let dot = Console.capturing()
        _ = await StartupTool.main(["plan", "-f", file, "--what-if", "drop=session", "--format", "dot"], environment: [:], console: dot)
        #expect(!dot.capturedOutput.contains("session"))
        let unknown = Console.capturing()
        code = await StartupTool.main(["plan", "-f", file, "--what-if", "drop=sesion"], environment: [:], console: unknown)
        #expect(code == .usage)
        #expect(
            unknown.capturedError
                == "error: --what-if \"drop=sesion\": unknown command \"sesion\" (did you mean \"session\"?)\nUsage: see startup plan --help\n"
        )
    }
}
