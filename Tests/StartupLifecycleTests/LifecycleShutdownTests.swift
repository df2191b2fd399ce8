import StartupKit
import StartupSupport
import StartupTestSupport
import Testing

@testable import StartupLifecycle

/// `shutdown()` stops modules in reverse dependency order, independent ones concurrently, each
/// under its timeout, and reports every stop.
@Suite struct LifecycleShutdownTests {
    /// A plan from `(id, dependencies)` pairs, every command succeeding.
    private func started(_ commands: KeyValuePairs<CommandID, [CommandID]>) async throws -> (StartupPlan, StartupReport) {
        var builder = StartupPlanBuilder()
        for (id, dependencies) in commands { builder.add(id, dependsOn: dependencies) { _ in } }
        let plan = try builder.build()
        return (plan, await StartupOrchestrator(plan).run())
    }

    /// A module whose stop records its id.
    private func recording(_ id: CommandID, in stopped: Locked<[CommandID]>) -> TestModule {
        TestModule(onStop: { stopped.withLock { $0.append(id) } })
    }

    @Test(arguments: RandomGraph.all(seeds: 30))
    func shutdown_stopsInReverseDependencyOrder_onRandomGraphs(graph: RandomGraph) async throws {
        let failing = graph.seed % 3 == 0 ? Int(graph.seed) % graph.count : nil
        let (plan, startup) = try await graph.started(failing: failing)
        let attached = graph.randomSubset(salt: 3)
        let log = EventLog()
        var modules: [CommandID: any LifecycleModule] = [:]
        for index in attached {
            modules[RandomGraph.id(index)] = TestModule(onStop: {
                log.start(index)
                for _ in 0..<(graph.durations[index] % 4) { await Task.yield() }
                log.finish(index)
            })
        }
        let report = try await StartupLifecycle(plan: plan, report: startup, modules: modules).shutdown()

        let succeeded = Set((0..<graph.count).filter { startup[RandomGraph.id($0)]!.status.isSuccess })
        let expected = attached.intersection(succeeded)
        let positions = LogPositions(log.entries)
        #expect(Set(positions.start.keys) == expected, "stopped modules in \(graph)")
        #expect(positions.duplicates.isEmpty, "stopped twice in \(graph)")
        #expect(report.status == .succeeded)
        #expect(Set(report.stopOrder) == Set(expected.map(RandomGraph.id)))
        #expect(Set(report.notStarted) == Set(attached.subtracting(succeeded).map(RandomGraph.id)))
        let closure = graph.transitiveDependencies
        for module in expected {
            for dependency in closure[module] where expected.contains(dependency) {
                #expect(positions.finished(module, before: dependency), "c\(module) stops before c\(dependency) in \(graph)")
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func shutdown_stopsIndependentModulesConcurrently() async throws {
        // Each stop waits for the other to have begun: only overlapping stops can finish.
        let (plan, startup) = try await started(["core": [], "a": ["core"], "b": ["core"]])
        let (aEntered, bEntered) = (Gate(), Gate())
        let stopped = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "core": recording("core", in: stopped),
                "a": TestModule(onStop: {
                    aEntered.open()
                    await waitUnlessCancelled(for: bEntered)
                    stopped.withLock { $0.append("a") }
                }),
                "b": TestModule(onStop: {
                    bEntered.open()
                    await waitUnlessCancelled(for: aEntered)
                    stopped.withLock { $0.append("b") }
                }),
            ])
        let report = await lifecycle.shutdown()
        #expect(report.status == .succeeded)
        #expect(stopped.withLock { $0 }.last == "core")
        #expect(Set(report.stopOrder.prefix(2)) == ["a", "b"] && report.stopOrder.last == "core")
    }

    @Test(.timeLimit(.minutes(1))) func shutdown_whenStopHangs_timesItOutAndStillStopsItsDependencies() async throws {
        let (plan, startup) = try await started(["store": [], "api": ["store"], "metrics": []])
        let stopped = Locked<[CommandID]>([])
        let (apiEnded, apiCancelled) = (Gate(), Locked(false))
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "store": recording("store", in: stopped),
                "api": TestModule(
                    stopTimeout: .milliseconds(20),
                    onStop: {
                        defer { apiEnded.open() }
                        do { try await hangUntilCancelled() } catch {
                            apiCancelled.withLock { $0 = true }
                            throw error
                        }
                    }),
                "metrics": recording("metrics", in: stopped),
            ], options: .init(stopTimeout: .seconds(60)))
        let report = await lifecycle.shutdown()
        await waitUnlessCancelled(for: apiEnded)
        #expect(apiCancelled.withLock { $0 }, "the hanging stop is cancelled, not just abandoned")
        #expect(report.status == .failed)
        #expect(report.failures.map(\.module) == ["api"])
        guard case .timedOut(let after) = report["api"]?.status else {
            Issue.record("api should have timed out, not \(report["api"]?.status.name ?? "nothing")")
            return
        }
        #expect(after == .milliseconds(20))
        #expect(Set(stopped.withLock { $0 }) == ["store", "metrics"])
        #expect(report["store"]!.startOffset! >= report["api"]!.endOffset!)
    }

    @Test(.timeLimit(.minutes(1))) func shutdown_whenStopIgnoresCancellation_stillReturnsAfterItsTimeout() async throws {
        let (plan, startup) = try await started(["store": [], "api": ["store"]])
        let release = Gate()
        let stopped = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "store": recording("store", in: stopped),
                "api": TestModule(onStop: { await waitUnlessCancelled(for: release) }),  // Deaf to cancellation.
            ], options: .init(stopTimeout: .milliseconds(20)))
        let report = await lifecycle.shutdown()
        release.open()
        #expect(report["api"]?.status.name == "timedOut")
        #expect(report["store"]?.status.name == "succeeded")
        #expect(stopped.withLock { $0 } == ["store"])
    }

    @Test func shutdown_whenStopThrows_reportsItAndStopsTheRest() async throws {
        let (plan, startup) = try await started(["store": [], "api": ["store"]])
        let stopped = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "store": recording("store", in: stopped),
                "api": TestModule(onStop: { throw Boom() }),
            ])
        let report = await lifecycle.shutdown()
        #expect(report.status == .failed)
        #expect(report.stopOrder == ["api", "store"])
        #expect(stopped.withLock { $0 } == ["store"])
        guard case .failed(let error) = report["api"]?.status else {
            Issue.record("api should have failed")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func aRunsShutdown_stopsLifecycleModules_inReverseDependencyOrder() async throws {
        var builder = StartupPlanBuilder()
        builder.add("store") { _ in }
        builder.add("api", dependsOn: ["store"]) { _ in }
        let run = StartupOrchestrator(try builder.build()).start()
        _ = await run.report()
        let stopped = Locked<[CommandID]>([])
        // Typed as lifecycle modules, as code written before the event bus had a library of its own.
        let modules: [CommandID: any LifecycleModule] = [
            "store": recording("store", in: stopped), "api": recording("api", in: stopped),
        ]
        let report = await run.shutdown(modules: modules)
        #expect(stopped.withLock { $0 } == ["api", "store"])
        #expect(report.stopOrder == ["api", "store"] && report.status == .succeeded)
    }

    @Test func shutdown_neverStopsModulesWhoseCommandsDidNotSucceed() async throws {
        var builder = StartupPlanBuilder()
        builder.add("store", options: CommandOptions(isOptional: true)) { _ in throw Boom() }
        builder.add("api", dependsOn: ["store"]) { _ in }
        builder.add("log") { _ in }
        let plan = try builder.build()
        let stopped = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: await StartupOrchestrator(plan).run(),
            modules: [
                "store": recording("store", in: stopped), "api": recording("api", in: stopped), "log": recording("log", in: stopped),
            ])
        let report = await lifecycle.shutdown()
        #expect(stopped.withLock { $0 } == ["log"])
        #expect(report.stopOrder == ["log"] && report.notStarted == ["store", "api"])
        #expect(report.status == .succeeded)
    }

    @Test(.timeLimit(.minutes(1))) func shutdown_whenCancelled_cancelsStopsInFlightAndStopsNothingMore() async throws {
        let (plan, startup) = try await started(["store": [], "api": ["store"]])
        let entered = Gate()
        let stopped = Locked<[CommandID]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "store": recording("store", in: stopped),
                "api": TestModule(onStop: {
                    entered.open()
                    try await hangUntilCancelled()
                }),
            ], options: .init(stopTimeout: .seconds(60)))
        let shutdown = Task { await lifecycle.shutdown() }
        await waitUnlessCancelled(for: entered)
        shutdown.cancel()
        let report = await shutdown.value
        #expect(report.status == .cancelled)
        #expect(report.modules.map(\.module) == ["api", "store"])
        #expect(report.modules.map(\.status.name) == ["cancelled", "cancelled"])
        #expect(report["store"]?.startOffset == nil)
        #expect(stopped.withLock { $0 }.isEmpty)
    }

    @Test func shutdown_happensOnce_andLaterEventsReachNoModule() async throws {
        let (plan, startup) = try await started(["a": []])
        let calls = Locked<[String]>([])
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "a": TestModule(
                    subscriptions: [
                        .on(InOrder.self) { _ in calls.withLock { $0.append("event") } },
                        .respond(to: WhoAreYou.self) { _ in
                            calls.withLock { $0.append("request") }
                            return "a"
                        },
                    ],
                    onStop: { calls.withLock { $0.append("stop") } })
            ])
        async let first = lifecycle.shutdown()
        async let second = lifecycle.shutdown()
        let (one, two) = await (first, second)
        let three = await lifecycle.shutdown()
        #expect(calls.withLock { $0 } == ["stop"])
        #expect(one.startOffset == two.startOffset && two.startOffset == three.startOffset)
        #expect(await lifecycle.post(InOrder()).calls.isEmpty)
        #expect(try await lifecycle.ask(WhoAreYou()).handler == nil)
        #expect(calls.withLock { $0 } == ["stop"])
    }

    @Test(.timeLimit(.minutes(1))) func shutdown_waitsForDeliveriesInFlight() async throws {
        let (plan, startup) = try await started(["a": []])
        let log = EventLog()
        let (handlerEntered, shutdownBegan, releaseHandler) = (Gate(), Gate(), Gate())
        let collector = ActivityCollector { activity in
            if case .shutdownStarted = activity { shutdownBegan.open() }
        }
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "a": TestModule(
                    subscriptions: [
                        .on(InOrder.self) { _ in
                            log.start(0)
                            handlerEntered.open()
                            await waitUnlessCancelled(for: releaseHandler)
                            log.finish(0)
                        }
                    ],
                    onStop: {
                        log.start(1)
                        log.finish(1)
                    })
            ], options: .init(observers: [collector]))
        let delivery = Task { await lifecycle.post(InOrder()) }
        await waitUnlessCancelled(for: handlerEntered)
        let shutdown = Task { await lifecycle.shutdown() }
        await waitUnlessCancelled(for: shutdownBegan)
        // A turn on the lifecycle's actor: had shutdown not waited, it would have begun the stop
        // in the turn that announced it. Events posted now reach nobody.
        #expect(await lifecycle.post(InOrder()).calls.isEmpty)
        #expect(!collector.summaries.contains("stop a"))
        releaseHandler.open()
        _ = await delivery.value
        let report = await shutdown.value
        #expect(report.status == .succeeded)
        #expect(log.entries == [.started(0), .finished(0), .started(1), .finished(1)])
    }

    @Test func shutdown_tellsObserversEachStopWithTimings() async throws {
        let (plan, startup) = try await started(["store": [], "api": ["store"]])
        let collector = ActivityCollector()
        let lifecycle = try StartupLifecycle(
            plan: plan, report: startup,
            modules: [
                "store": TestModule(), "api": TestModule(),
            ], options: .init(observers: [collector]))
        let report = await lifecycle.shutdown()
        #expect(
            collector.summaries == [
                "shutdown 2", "stop api", "stopped api succeeded", "stop store", "stopped store succeeded", "shut down succeeded",
            ])
        #expect(collector.isChronological)
        #expect(report.modules.allSatisfy { $0.duration >= .zero } && report.wallTime >= .zero)
    }
}
