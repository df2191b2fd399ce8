import StartupKit
import StartupSupport
import StartupTestSupport
import Testing

@testable import StartupLifecycle

/// Events reach their subscribers in (reverse) dependency order, concurrently only when the
/// event says so, and never reach modules whose commands did not succeed.
@Suite struct LifecycleDeliveryTests {
    /// Attaches a module to every command of `graph` (subscribing to `Event` where `subscribes`),
    /// posts one event and checks the order of the calls against the graph.
    private func checkDelivery<Event: LifecycleEvent>(
        _ event: Event, graph: RandomGraph, failing: Int? = nil, subscribers subscribes: Set<Int>
    ) async throws {
        let (plan, startup) = try await graph.started(failing: failing)
        let log = EventLog()
        var modules: [CommandID: any LifecycleModule] = [:]
        for index in 0..<graph.count {
            let subscriptions: [LifecycleSubscription] =
                subscribes.contains(index)
                ? [
                    .on(Event.self) { _ in
                        log.start(index)
                        for _ in 0..<(graph.durations[index] % 4) { await Task.yield() }
                        log.finish(index)
                    }
                ] : []
            modules[RandomGraph.id(index)] = TestModule(subscriptions: subscriptions)
        }
        let lifecycle = try StartupLifecycle(plan: plan, report: startup, modules: modules)
        let report = await lifecycle.post(event)

        let succeeded = Set((0..<graph.count).filter { startup[RandomGraph.id($0)]!.status.isSuccess })
        let expected = subscribes.intersection(succeeded)
        let positions = LogPositions(log.entries)
        let context = "\(Event.self) on \(graph), failing \(failing.map(String.init) ?? "none")"
        #expect(Set(positions.start.keys) == expected, "receivers in \(context)")
        #expect(positions.duplicates.isEmpty, "called twice: \(positions.duplicates) in \(context)")
        #expect(Set(report.receivers) == Set(expected.map(RandomGraph.id)), "\(context)")
        #expect(report.calls.allSatisfy { $0.status.isSuccess }, "\(context)")
        if !Event.delivery.isConcurrent {
            #expect(log.maxRunning <= 1, "one at a time in \(context)")
            #expect(report.receivers == positions.starts.map(RandomGraph.id), "report order in \(context)")
        }
        let closure = graph.transitiveDependencies
        for module in expected {
            for dependency in closure[module] where expected.contains(dependency) {
                let (first, second) = Event.delivery.isReversed ? (module, dependency) : (dependency, module)
                #expect(positions.finished(first, before: second), "c\(first) before c\(second) in \(context)")
            }
        }
    }

    @Test(arguments: RandomGraph.all(seeds: 30))
    func post_deliversInDependencyOrder_onRandomGraphs(graph: RandomGraph) async throws {
        let subscribers = graph.randomSubset(salt: 1)
        try await checkDelivery(InOrder(), graph: graph, subscribers: subscribers)
        try await checkDelivery(ConcurrentInOrder(), graph: graph, subscribers: subscribers)
    }

    @Test(arguments: RandomGraph.all(seeds: 30))
    func post_teardownLikeEvents_deliverInReverseDependencyOrder_onRandomGraphs(graph: RandomGraph) async throws {
        let subscribers = graph.randomSubset(salt: 2)
        try await checkDelivery(Reversed(), graph: graph, subscribers: subscribers)
        try await checkDelivery(ConcurrentReversed(), graph: graph, subscribers: subscribers)
    }

    @Test(arguments: RandomGraph.all(seeds: 20))
    func post_neverReachesSkippedOrFailedModules_onRandomGraphs(graph: RandomGraph) async throws {
        let failing = Int(graph.seed) % graph.count
        let everyone = Set(0..<graph.count)
        try await checkDelivery(InOrder(), graph: graph, failing: failing, subscribers: everyone)
        try await checkDelivery(ConcurrentReversed(), graph: graph, failing: failing, subscribers: everyone)
    }

    @Test func post_skipsFailedAndSkippedModules_andSaysWhichTookPart() async throws {
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in }
        builder.add("database", dependsOn: ["config"], options: CommandOptions(isOptional: true)) { _ in throw Boom() }
        builder.add("cache", dependsOn: ["database"]) { _ in }
        builder.add("analytics", dependsOn: ["config"]) { _ in }
        let plan = try builder.build()
        let startup = await StartupOrchestrator(plan).run()
        let received = Locked<[CommandID]>([])
        func module(_ id: CommandID) -> TestModule {
            TestModule(subscriptions: [.on(InOrder.self) { _ in received.withLock { $0.append(id) } }])
        }
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "config": module("config"), "database": module("database"),
                "cache": module("cache"), "analytics": module("analytics"),
            ])
        let report = await lifecycle.post(InOrder())
        #expect(received.withLock { $0 } == ["config", "analytics"])
        #expect(report.receivers == ["config", "analytics"])
        #expect(lifecycle.activeModules == ["config", "analytics"])
        #expect(lifecycle.inactiveModules == ["database", "cache"])
    }

    @Test(.timeLimit(.minutes(1)))
    func post_concurrentDelivery_callsIndependentSubscribersTogether() async throws {
        // Each handler waits for the other to have begun: only overlapping calls can finish.
        let (aEntered, bEntered) = (Gate(), Gate())
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b") { _ in }
        builder.add("c", dependsOn: ["a", "b"]) { _ in }
        let plan = try builder.build()
        let log = EventLog()
        let lifecycle = try StartupLifecycle(
            plan: plan, report: await StartupOrchestrator(plan).run(),
            modules: [
                "a": TestModule(subscriptions: [
                    .on(ConcurrentInOrder.self) { _ in
                        log.start(0)
                        aEntered.open()
                        await waitUnlessCancelled(for: bEntered)
                        log.finish(0)
                    }
                ]),
                "b": TestModule(subscriptions: [
                    .on(ConcurrentInOrder.self) { _ in
                        log.start(1)
                        bEntered.open()
                        await waitUnlessCancelled(for: aEntered)
                        log.finish(1)
                    }
                ]),
                "c": TestModule(subscriptions: [
                    .on(ConcurrentInOrder.self) { _ in
                        log.start(2)
                        log.finish(2)
                    }
                ]),
            ])
        let report = await lifecycle.post(ConcurrentInOrder())
        #expect(log.maxRunning == 2)
        let positions = LogPositions(log.entries)
        #expect(positions.finished(0, before: 2) && positions.finished(1, before: 2))
        #expect(report.calls.map(\.status.name) == ["succeeded", "succeeded", "succeeded"])
    }

    @Test func post_reachesOnlySubscribersOfTheEventsType() async throws {
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b") { _ in }
        let plan = try builder.build()
        let received = Locked<[String]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: await StartupOrchestrator(plan).run(),
            modules: [
                "a": TestModule(subscriptions: [.on(InOrder.self) { _ in received.withLock { $0.append("a") } }]),
                "b": TestModule(subscriptions: [
                    .on(MemoryPressure.self) { event in
                        received.withLock { $0.append("b \(event.level)") }
                    }
                ]),
            ])
        let report = await lifecycle.post(MemoryPressure(level: .critical))
        #expect(received.withLock { $0 } == ["b critical"])
        #expect(report.event == "MemoryPressure" && report.delivery == .concurrentReverseDependencyOrder)
        #expect(await lifecycle.post(Reversed()).calls.isEmpty)
    }

    @Test func post_whenHandlerThrows_reportsItAndStillReachesDependents() async throws {
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in }
        let plan = try builder.build()
        let received = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: await StartupOrchestrator(plan).run(),
            modules: [
                "a": TestModule(subscriptions: [.on(InOrder.self) { _ in throw Boom() }]),
                "b": TestModule(subscriptions: [.on(InOrder.self) { _ in received.withLock { $0.append("b") } }]),
            ])
        let report = await lifecycle.post(InOrder())
        #expect(received.withLock { $0 } == ["b"])
        #expect(report.failures.map(\.module) == ["a"])
        guard case .failed(let error) = report["a"]?.status else {
            Issue.record("a should have failed")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test(.timeLimit(.minutes(1))) func post_whenCancelled_cancelsTheHandlerInFlightAndCallsNoMore() async throws {
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in }
        let plan = try builder.build()
        let entered = Gate()
        let bCalled = Locked(false)
        let lifecycle = try StartupLifecycle(
            plan: plan, report: await StartupOrchestrator(plan).run(),
            modules: [
                "a": TestModule(subscriptions: [
                    .on(InOrder.self) { _ in
                        entered.open()
                        try await hangUntilCancelled()
                    }
                ]),
                "b": TestModule(subscriptions: [.on(InOrder.self) { _ in bCalled.withLock { $0 = true } }]),
            ])
        let delivery = Task { await lifecycle.post(InOrder()) }
        await waitUnlessCancelled(for: entered)
        delivery.cancel()
        let report = await delivery.value
        #expect(!bCalled.withLock { $0 })
        #expect(report.calls.map(\.module) == ["a", "b"])
        #expect(report.calls.map(\.status.name) == ["cancelled", "cancelled"])
        #expect(report["b"]?.startOffset == nil)
    }

    @Test func post_tellsObserversEachCallWithTimings() async throws {
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in }
        let plan = try builder.build()
        let collector = ActivityCollector()
        let lifecycle = try StartupLifecycle(
            plan: plan, report: await StartupOrchestrator(plan).run(),
            modules: [
                "a": TestModule(subscriptions: [.on(Reversed.self) { _ in }]),
                "b": TestModule(subscriptions: [.on(Reversed.self) { _ in }]),
            ],
            options: .init(observers: [collector]))
        let report = await lifecycle.post(Reversed())
        #expect(
            collector.summaries == [
                "deliver Reversed to 2",
                "call b Reversed", "called b Reversed succeeded",
                "call a Reversed", "called a Reversed succeeded",
                "delivered Reversed",
            ])
        #expect(collector.isChronological)
        #expect(report.calls.allSatisfy { $0.duration >= .zero && $0.startOffset! >= report.startOffset })
        #expect(report.wallTime >= .zero)
    }

    @Test func genericEvents_declareTheirDelivery() {
        #expect(DidEnterBackground.delivery == .reverseDependencyOrder)
        #expect(WillEnterForeground.delivery == .dependencyOrder)
        #expect(MemoryPressure.delivery == .concurrentReverseDependencyOrder)
        #expect(WillTerminate.delivery == .reverseDependencyOrder)
        #expect(InOrder.delivery.description == "dependencyOrder")
    }
}
