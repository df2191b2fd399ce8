import StartupSupport
import Testing

@testable import StartupKit

/// Modules, `contains`, `remove` and re-adding: what a big app does with commands it does not own.
@Suite struct StartupModuleTests {
    /// A module that adds one command per id, each with the given dependencies.
    private struct Kit: StartupModule {
        let name: String
        let commands: [(CommandID, [CommandID])]

        func register(into builder: inout StartupPlanBuilder) {
            for (id, dependencies) in commands { builder.add(id, dependsOn: dependencies) { _ in } }
        }
    }

    /// A module that removes an id another module added.
    private struct Remover: StartupModule {
        let name: String
        let id: CommandID

        func register(into builder: inout StartupPlanBuilder) {
            builder.remove(id)
        }
    }

    private func issues(of builder: StartupPlanBuilder) -> [PlanIssue] {
        do {
            _ = try builder.build()
            return []
        } catch {
            return error.issues
        }
    }

    @Test func remove_thenBuild_whenSomethingStillDependsOnIt_failsNamingBothAndTheRemoval() {
        var builder = StartupPlanBuilder()
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", []), ("banner", ["ads"])]))
        #expect(builder.contains("ads"))
        let removed = builder.remove("ads")
        let removedAgain = builder.remove("ads")
        #expect(removed)
        #expect(!removedAgain)
        #expect(!builder.contains("ads"))
        let issues = issues(of: builder)
        #expect(issues == [.removedDependency("banner", commandIndex: 0, dependency: "ads", dependencyIndex: 0, removedBy: nil)])
        #expect(
            issues.first?.description
                == "\"banner\" depends on \"ads\", which was removed by the app; add \"ads\" again or drop the dependency "
                + "(or make it an `after` edge, which a removed command does not hold up)")
    }

    @Test func remove_byAModule_namesTheModuleInTheError() {
        var builder = StartupPlanBuilder()
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", []), ("banner", ["ads"])]))
        builder.add(module: Remover(name: "LiteBuild", id: "ads"))
        #expect(issues(of: builder).map(\.description).first?.contains("removed by LiteBuild") == true)
    }

    @Test func remove_thenAddAgain_replacesTheCommand() async throws {
        var builder = StartupPlanBuilder()
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", []), ("banner", ["ads"])]))
        builder.remove("ads")
        builder.add("ads") { _ in "house ads" }
        let plan = try builder.build()
        #expect(plan.ids == ["banner", "ads"])
        #expect(plan.dependencies(of: "banner") == ["ads"])
        #expect(plan.module(of: "ads") == nil)
        #expect(plan.module(of: "banner") == "AdsKit")
        let report = await StartupOrchestrator(plan).run()
        #expect(report.status == .succeeded)
        #expect(report["banner"]?.module == "AdsKit")
    }

    @Test func build_whenTwoModulesAddOneID_namesBothModules() {
        var builder = StartupPlanBuilder()
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", [])]))
        builder.add(module: Kit(name: "MonetizationKit", commands: [("ads", [])]))
        let issues = issues(of: builder)
        #expect(
            issues == [
                .duplicateIDAcrossModules(
                    "ads", firstIndex: 0, duplicateIndex: 1, firstModule: "AdsKit", duplicateModule: "MonetizationKit")
            ])
        #expect(issues.first?.description.hasPrefix("duplicate id \"ads\": added by AdsKit and by MonetizationKit;") == true)
    }

    @Test func build_whenTheAppAndAModuleAddOneID_namesTheApp() {
        var builder = StartupPlanBuilder()
        builder.add("ads") { _ in }
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", [])]))
        #expect(issues(of: builder).first?.description.hasPrefix("duplicate id \"ads\": added by the app and by AdsKit;") == true)
    }

    @Test func build_whenAModuleIsAddedTwice_saysSo() {
        var builder = StartupPlanBuilder()
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", [])]))
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", [])]))
        #expect(issues(of: builder).first?.description.contains("added twice by AdsKit") == true)
    }

    @Test func build_withoutModules_keepsTheDuplicateMessage() {
        var builder = StartupPlanBuilder()
        builder.add("ads") { _ in }
        builder.add("ads") { _ in }
        #expect(issues(of: builder) == [.duplicateID("ads", firstIndex: 0, duplicateIndex: 1)])
    }

    /// A module that adds commands with `after` edges.
    private struct OrderedKit: StartupModule {
        let name: String
        let commands: [(CommandID, [CommandID], after: [CommandID])]

        func register(into builder: inout StartupPlanBuilder) {
            for (id, dependencies, after) in commands { builder.add(id, dependsOn: dependencies, after: after) { _ in } }
        }
    }

    @Test func build_whenAModulesCommandHasAnUnknownDependency_namesTheModule() {
        var builder = StartupPlanBuilder()
        builder.add("cache") { _ in }
        builder.add(module: Kit(name: "FeedKit", commands: [("feed", ["cach"])]))
        let issues = issues(of: builder)
        #expect(
            issues == [
                .unknownDependencyInModule(
                    "feed", commandIndex: 1, dependency: "cach", dependencyIndex: 0, suggestion: "cache", module: "FeedKit")
            ])
        #expect(issues.first?.description == #"unknown dependency "cach" of "feed", added by FeedKit; did you mean "cache"?"#)
    }

    @Test func build_whenTheAppsCommandHasAnUnknownDependency_keepsTheMessageWithoutModules() {
        var builder = StartupPlanBuilder()
        builder.add(module: Kit(name: "CacheKit", commands: [("cache", [])]))
        builder.add("feed", dependsOn: ["cach"]) { _ in }
        #expect(
            issues(of: builder) == [
                .unknownDependency("feed", commandIndex: 1, dependency: "cach", dependencyIndex: 0, suggestion: "cache")
            ])
    }

    @Test func build_whenACycleCrossesModules_namesTheModuleOfEachCommand() {
        var builder = StartupPlanBuilder()
        builder.add(module: OrderedKit(name: "AdsKit", commands: [("ads", [], after: ["feed"]), ("banner", ["ads"], after: [])]))
        builder.add("feed", dependsOn: ["banner"]) { _ in }
        builder.add(module: OrderedKit(name: "LoopKit", commands: [("loop", [], after: ["loop"])]))
        let issues = issues(of: builder)
        #expect(
            issues == [
                .cycleAcrossModules(["ads", "feed", "banner", "ads"], commandIndex: 0, modules: ["AdsKit", nil, "AdsKit", "AdsKit"]),
                .cycleAcrossModules(["loop", "loop"], commandIndex: 3, modules: ["LoopKit", "LoopKit"]),
            ])
        #expect(
            issues.first?.description
                == #"dependency cycle: ads -> feed -> banner -> ads (added: "ads", "banner" by AdsKit; "feed" by the app)"#)
        #expect(issues.last?.description == #"dependency cycle: loop -> loop (added: "loop" by LoopKit)"#)
    }

    @Test func output_throughAnAfterEdge_betweenModules_namesBothModules() async throws {
        struct FeedKit: StartupModule {
            let name = "FeedKit"
            let refusal: Locked<StartupContextError?>
            func register(into builder: inout StartupPlanBuilder) {
                builder.add("feed", after: ["ads"]) { [refusal] context in
                    do {
                        _ = try context.output(of: "ads", as: String.self)
                    } catch let error as StartupContextError {
                        refusal.withLock { $0 = error }
                    }
                }
            }
        }
        let refusal = Locked<StartupContextError?>(nil)
        var builder = StartupPlanBuilder()
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", [])]))
        builder.add(module: FeedKit(refusal: refusal))
        _ = await StartupOrchestrator(try builder.build()).run()
        let error = try #require(refusal.withLock { $0 })
        #expect(error.code == .onlyOrdered && error.module == "FeedKit" && error.requestedModule == "AdsKit")
        #expect(
            error.description
                == #""feed" (added by FeedKit) asked for the output of "ads" (added by AdsKit), which it only runs after "#
                + #"(an order-only edge, which hands over no output); make "ads" a dependency to read its output"#)
    }

    @Test func report_givesEachCommandsModuleAndTheTimeByModule() async throws {
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in }
        builder.add(module: Kit(name: "AdsKit", commands: [("ads", ["config"])]))
        builder.add(module: Kit(name: "Feed", commands: [("feed", ["config"]), ("first-screen", ["feed"])]))
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.commands.map(\.module) == [nil, "AdsKit", "Feed", "Feed"])
        let times = report.timeByModule()
        #expect(times.map(\.module) == [nil, "AdsKit", "Feed"])
        #expect(times.map(\.commands) == [["config"], ["ads"], ["feed", "first-screen"]])
        for time in times {
            let total = time.commands.reduce(Duration.zero) { $0 + (report[$1]?.duration ?? .zero) }
            #expect(time.totalDuration == total)
        }
        let shares = times.map(\.criticalPathShare).reduce(0, +)
        #expect(shares == 0 || abs(shares - 1) < 1e-9)
    }

    @Test func timeByModule_alongAPath_sharesItByDuration() {
        let report = StartupReport(
            status: .succeeded,
            commands: [
                CommandReport(id: "a", status: .succeeded, startOffset: .zero, endOffset: .milliseconds(30), attempts: 1),
                CommandReport(
                    id: "b", status: .succeeded, startOffset: .milliseconds(30), endOffset: .milliseconds(40), attempts: 1,
                    module: "Kit"),
                CommandReport(
                    id: "c", status: .succeeded, startOffset: .zero, endOffset: .milliseconds(50), attempts: 1, module: "Kit"),
            ],
            wallTime: .milliseconds(50), criticalPath: ["c"], criticalPathDuration: .milliseconds(50))
        let whole = report.timeByModule()
        #expect(whole.map(\.criticalPathShare) == [0, 1])
        #expect(whole[1].totalDuration == .milliseconds(60))
        let toB = report.timeByModule(along: ["a", "b"])
        #expect(toB.map(\.criticalPathDuration) == [.milliseconds(30), .milliseconds(10)])
        #expect(toB.map(\.criticalPathShare) == [0.75, 0.25])
    }
}
