import Testing

@testable import StartupKit

/// Serialized: the two million-command tests each keep a processor busy for seconds (tens of seconds
/// under the thread sanitizer), on a thread of their own, one at a time.
@Suite(.serialized) struct PlanBuilderTests {
    private func builder(_ commands: [(CommandID, [CommandID])]) -> StartupPlanBuilder {
        var builder = StartupPlanBuilder()
        for (id, dependencies) in commands {
            builder.add(id, dependsOn: dependencies) { _ in }
        }
        return builder
    }

    private func issues(_ commands: [(CommandID, [CommandID])]) -> [PlanIssue] {
        do {
            _ = try builder(commands).build()
            return []
        } catch {
            return error.issues
        }
    }

    @Test func build_whenValid_sortsTopologicallyWithLevels() throws {
        let plan = try builder([("app", ["db", "log"]), ("db", ["config"]), ("config", []), ("log", [])]).build()
        #expect(plan.topologicalOrder == ["config", "log", "db", "app"])
        #expect(plan.levels == [["config", "log"], ["db"], ["app"]])
        #expect(plan.dependencies(of: "app") == ["db", "log"])
        #expect(plan.dependents(of: "config") == ["db"])
        #expect(plan.level(of: "app") == 2)
    }

    @Test func build_whenEmpty_givesEmptyPlan() throws {
        let plan = try StartupPlanBuilder().build()
        #expect(plan.count == 0)
        #expect(plan.levels.isEmpty)
        #expect(plan.timing().criticalPath.isEmpty)
    }

    @Test func build_whenCycle_namesTheWholeCycle() {
        let found = issues([("a", ["b"]), ("b", ["c"]), ("c", ["a"]), ("d", ["a"])])
        #expect(found.map(\.description) == ["dependency cycle: a -> b -> c -> a"])
    }

    @Test func build_whenUnknownDependency_suggestsClosestID() {
        let found = issues([("cache", []), ("api", ["cach"])])
        #expect(found.map(\.description) == ["unknown dependency \"cach\" of \"api\"; did you mean \"cache\"?"])
    }

    @Test func build_whenAbbreviatedDependency_suggestsTheLongID() {
        let found = issues([("configuration", []), ("database", ["confg"])])
        guard case .unknownDependency(_, 1, "confg", 0, let suggestion) = found.first else {
            Issue.record("expected an unknown dependency, got \(found)")
            return
        }
        #expect(suggestion == "configuration")
    }

    @Test func build_whenNothingIsClose_suggestsNothing() {
        let found = issues([("cache", []), ("api", ["zebra"])])
        #expect(found.map(\.description) == ["unknown dependency \"zebra\" of \"api\""])
    }

    @Test func build_whenDuplicateID_namesBothPositions() {
        let found = issues([("a", []), ("b", []), ("a", [])])
        #expect(found == [.duplicateID("a", firstIndex: 0, duplicateIndex: 2)])
    }

    /// One rule for ids, the manifest's and the saved report's (``CommandIDRule``): the builder
    /// reports each bad one, in the manifest's words.
    @Test func build_whenIDIsEmptyTooLongOrHasSpacesOrControlCharacters_reportsIt() throws {
        let tooLong = String(repeating: "x", count: 201)
        let found = issues([("", []), ("has space", []), ("ok", []), ("tab\there", ["ok"]), (CommandID(tooLong), []), ("bell\u{07}", [])])
        #expect(
            found == [
                .invalidID("", commandIndex: 0), .invalidID("has space", commandIndex: 1), .invalidID("tab\there", commandIndex: 3),
                .invalidID(CommandID(tooLong), commandIndex: 4), .invalidID("bell\u{07}", commandIndex: 5),
            ])
        try #require(found.count == 5)
        #expect(
            found[1].description == #"invalid command id "has space": use 1 to 200 characters without spaces or control characters"#)
        #expect(found[0].description.hasPrefix(#"invalid command id "": "#))
        #expect(found[4].description.hasPrefix(#"invalid command id "bell\u0007": "#), "a control character is shown escaped")
    }

    @Test func build_acceptsEveryIDTheRuleAllows() throws {
        let longest = String(repeating: "é", count: 200)
        let plan = try builder([("db:primary/v2", []), ("café", ["db:primary/v2"]), (CommandID(longest), ["café"])]).build()
        #expect(plan.ids == ["db:primary/v2", "café", CommandID(longest)])
    }

    @Test func build_whenSelfDependency_reportsIt() {
        let found = issues([("a", ["a"])])
        #expect(found == [.selfDependency("a", commandIndex: 0, dependencyIndex: 0)])
        #expect(found.first?.description == "\"a\" depends on itself")
    }

    @Test func build_whenSeveralProblems_reportsAllInDeclarationOrder() {
        let found = issues([
            ("a", ["b"]), ("b", ["a"]),  // cycle
            ("c", ["c"]),  // self
            ("d", ["nope"]),  // unknown
            ("c", []),  // duplicate
            ("e", ["f"]), ("f", ["g"]), ("g", ["e"]),  // second cycle
        ])
        #expect(
            found.map(\.description) == [
                "dependency cycle: a -> b -> a",
                "\"c\" depends on itself",
                "unknown dependency \"nope\" of \"d\"",
                "duplicate id \"c\": commands 2 and 4 (counting from 0) both use it",
                "dependency cycle: e -> f -> g -> e",
            ])
    }

    @Test func build_whenDependencyNamedTwice_countsItOnce() throws {
        let plan = try builder([("a", []), ("b", ["a", "a"])]).build()
        #expect(plan.dependencies(of: "b") == ["a"])
        #expect(plan.dependents(of: "a") == ["b"])
    }

    @Test func build_whenCycleHasAShortcut_reportsAShortestCycle() {
        // a -> b -> c -> d -> a, and a -> d directly: the shortest way round from a is a -> d -> a.
        let found = issues([("a", ["b", "d"]), ("b", ["c"]), ("c", ["d"]), ("d", ["a"])])
        #expect(found.map(\.description) == ["dependency cycle: a -> d -> a"])
    }

    @Test func build_whenMillionCommandChain_succeedsWithoutRecursion() async throws {
        let count = 1_000_000
        let (built, level, critical) = try await onOwnThread {
            var builder = StartupPlanBuilder()
            for index in 0..<count {
                builder.add(CommandID("n\(index)"), dependsOn: index == 0 ? [] : [CommandID("n\(index - 1)")]) { _ in }
            }
            let plan = try builder.build()
            return (plan.count, plan.level(of: "n999999"), plan.timing().criticalPath.count)
        }
        #expect(built == count)
        #expect(level == count - 1)
        #expect(critical == count)
    }

    @Test func build_whenMillionCommandCycle_reportsItWithoutRecursion() async throws {
        let count = 1_000_000
        let issues = try await onOwnThread { () -> [PlanIssue] in
            var builder = StartupPlanBuilder()
            for index in 0..<count {
                builder.add(CommandID("n\(index)"), dependsOn: [CommandID("n\((index + 1) % count)")]) { _ in }
            }
            do {
                _ = try builder.build()
                return []
            } catch let error as PlanError {
                return error.issues
            }
        }
        guard case .cycle(let path, 0)? = issues.first else {
            Issue.record("a cycle should be reported: \(issues.prefix(3))")
            return
        }
        #expect(issues.count == 1 && path.count == count + 1 && path.first == "n0" && path[1] == "n1")
    }
}
