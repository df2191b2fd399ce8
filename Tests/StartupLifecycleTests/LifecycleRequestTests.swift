import StartupKit
import StartupSeededRandom
import StartupSupport
import Testing

@testable import StartupLifecycle

/// Requests go down a chain of responsibility: highest priority first, declaration order among
/// equals, stopping at the first handler that answers.
@Suite struct LifecycleRequestTests {
    /// A plan of independent commands named by `ids`, all succeeding unless listed in `failing`.
    private func started(_ ids: [CommandID], failing: Set<CommandID> = []) async throws -> (StartupPlan, StartupReport) {
        var builder = StartupPlanBuilder()
        for id in ids {
            builder.add(id, options: CommandOptions(isOptional: true)) { _ in
                if failing.contains(id) { throw Boom() }
            }
        }
        let plan = try builder.build()
        return (plan, await StartupOrchestrator(plan).run())
    }

    /// A module that records being asked and answers its own id, or passes.
    private func responder(
        _ id: CommandID, priority: CommandPriority = .normal, answers: Bool,
        asked: Locked<[CommandID]>
    ) -> TestModule {
        TestModule(subscriptions: [
            .respond(to: WhoAreYou.self, priority: priority) { _ in
                asked.withLock { $0.append(id) }
                return answers ? id.rawValue : nil
            }
        ])
    }

    @Test func ask_stopsAtTheFirstHandlerThatAnswers() async throws {
        let (plan, startup) = try await started(["low", "first", "second", "high"])
        let asked = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "low": responder("low", priority: .low, answers: true, asked: asked),
                "first": responder("first", answers: true, asked: asked),
                "second": responder("second", answers: true, asked: asked),
                "high": responder("high", priority: .high, answers: false, asked: asked),
            ])
        let answer = try await lifecycle.ask(WhoAreYou())
        #expect(answer.handler == "first" && answer.response == "first")
        #expect(asked.withLock { $0 } == ["high", "first"])
    }

    @Test(arguments: 0..<200)
    func ask_answersLikeABruteForceChain_onRandomPriorities(seed: Int) async throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let count = Int.random(in: 1...12, using: &random)
        let ids = (0..<count).map { CommandID("m\($0)") }
        let priorities = ids.map { _ in CommandPriority(Int.random(in: -2...2, using: &random)) }
        let answering = ids.map { _ in Int.random(in: 0..<3, using: &random) == 0 }
        let failing = Set(ids.filter { _ in Int.random(in: 0..<5, using: &random) == 0 })
        let (plan, startup) = try await started(ids, failing: failing)
        let asked = Locked<[CommandID]>([])
        var modules: [CommandID: any LifecycleModule] = [:]
        for (index, id) in ids.enumerated() {
            modules[id] = responder(id, priority: priorities[index], answers: answering[index], asked: asked)
        }
        let answer = try await StartupLifecycle(plan: plan, report: startup, modules: modules).ask(WhoAreYou())

        // Reference: sort by priority (stable over declaration order), drop failed, cut after the first answer.
        var chain = ids.indices.filter { !failing.contains(ids[$0]) }
        chain.sort { (priorities[$1], $0) < (priorities[$0], $1) }
        let answerer = chain.firstIndex { answering[$0] }
        let expectedAsked = answerer.map { Array(chain[...$0]) } ?? chain
        #expect(asked.withLock { $0 } == expectedAsked.map { ids[$0] }, "seed \(seed)")
        #expect(answer.handler == answerer.map { ids[chain[$0]] }, "seed \(seed)")
    }

    @Test func ask_whenNobodyAnswers_isUnhandledAfterAskingEveryone() async throws {
        let (plan, startup) = try await started(["a", "b"])
        let asked = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "a": responder("a", answers: false, asked: asked),
                "b": responder("b", answers: false, asked: asked),
            ])
        let answer = try await lifecycle.ask(WhoAreYou())
        guard case .unhandled = answer else {
            Issue.record("expected .unhandled, got \(answer)")
            return
        }
        #expect(asked.withLock { $0 } == ["a", "b"])
    }

    @Test func ask_neverAsksModulesWhoseCommandsFailed() async throws {
        let (plan, startup) = try await started(["broken", "fallback"], failing: ["broken"])
        let asked = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "broken": responder("broken", priority: .high, answers: true, asked: asked),
                "fallback": responder("fallback", answers: true, asked: asked),
            ])
        #expect(try await lifecycle.ask(WhoAreYou()).handler == "fallback")
        #expect(asked.withLock { $0 } == ["fallback"])
    }

    @Test func ask_whenHandlerThrows_endsTheChainWithAnErrorNamingTheModule() async throws {
        let (plan, startup) = try await started(["thrower", "later"])
        let asked = Locked<[CommandID]>([])
        let collector = ActivityCollector()
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "thrower": TestModule(subscriptions: [.respond(to: WhoAreYou.self) { _ in throw Boom() }]),
                "later": responder("later", answers: true, asked: asked),
            ], options: .init(observers: [collector]))
        let error = await #expect(throws: LifecycleError.self) { try await lifecycle.ask(WhoAreYou()) }
        #expect(error?.code == .handlerFailed && error?.module == "thrower")
        #expect(error?.underlying as? Boom == Boom())
        #expect(asked.withLock { $0 }.isEmpty)
        #expect(
            collector.summaries == [
                "ask WhoAreYou of 2", "call thrower WhoAreYou", "called thrower WhoAreYou failed", "answered WhoAreYou by nobody",
            ])
    }

    @Test func ask_whenCancelled_throwsWithoutAskingAnyone() async throws {
        let (plan, startup) = try await started(["a"])
        let asked = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "a": responder("a", answers: true, asked: asked)
            ])
        let request = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await lifecycle.ask(WhoAreYou())
        }
        await #expect(throws: CancellationError.self) { try await request.value }
        #expect(asked.withLock { $0 }.isEmpty)
    }

    @Test func ask_tellsObserversWhoAnswered() async throws {
        let (plan, startup) = try await started(["a", "b"])
        let collector = ActivityCollector()
        let asked = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "a": responder("a", answers: false, asked: asked),
                "b": responder("b", answers: true, asked: asked),
            ], options: .init(observers: [collector]))
        _ = try await lifecycle.ask(WhoAreYou())
        #expect(
            collector.summaries == [
                "ask WhoAreYou of 2",
                "call a WhoAreYou", "called a WhoAreYou succeeded",
                "call b WhoAreYou", "called b WhoAreYou succeeded",
                "answered WhoAreYou by b",
            ])
        #expect(collector.isChronological)
    }

    @Test func init_whenModuleIsAttachedToAnUnknownCommand_throwsWithASuggestion() async throws {
        let (plan, startup) = try await started(["database", "cache"])
        let error = #expect(throws: LifecycleError.self) {
            try StartupLifecycle(plan: plan, report: startup, modules: ["databse": TestModule()])
        }
        #expect(error?.code == .unknownCommand && error?.module == "databse" && error?.suggestion == "database")
        #expect(error?.description == "a module is attached to \"databse\", which is not a command of the plan; did you mean \"database\"?")
    }
}
