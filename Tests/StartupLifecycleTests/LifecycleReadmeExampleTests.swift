import StartupKit
import Testing

@testable import StartupLifecycle

/// The README's lifecycle example, compiled and run on a plan shaped as the README tour's.
@Suite struct LifecycleReadmeExampleTests {
    struct OpenURL: LifecycleRequest {
        typealias Response = Bool
        let url: String
    }

    actor ConnectionPool: LifecycleModule {
        private(set) var idle = 4
        nonisolated var subscriptions: [LifecycleSubscription] {
            [.on(MemoryPressure.self) { [self] _ in await self.closeIdle() }]
        }
        func closeIdle() { idle = 0 }
        func stop() async throws { closeIdle() }
    }

    struct Router: LifecycleModule {
        var subscriptions: [LifecycleSubscription] {
            [
                .respond(to: OpenURL.self, priority: .high) { request in
                    request.url.hasPrefix("app://") ? true : nil
                }
            ]
        }
    }

    @Test func lifecycleExample_runsAsTheReadmeSays() async throws {
        var builder = StartupPlanBuilder()
        builder.add("configuration") { _ in }
        builder.add("database", dependsOn: ["configuration"]) { _ in }
        builder.add("first-screen", dependsOn: ["database"]) { _ in }
        let plan = try builder.build()
        let pool = ConnectionPool()

        let report = await StartupOrchestrator(plan).run()
        let lifecycle = try StartupLifecycle(
            plan: plan, report: report,
            modules: [
                "database": pool, "first-screen": Router(),
            ], options: .init(stopTimeout: .seconds(5)))
        let delivery = await lifecycle.post(MemoryPressure(level: .warning))
        let idle = await pool.idle
        #expect(delivery.receivers == ["database"] && idle == 0)
        let answer = try await lifecycle.ask(OpenURL(url: "app://settings"))
        #expect(answer.handler == "first-screen" && answer.response == true)
        #expect(try await lifecycle.ask(OpenURL(url: "https://example.com")).handler == nil)
        let shutdown = await lifecycle.shutdown()
        #expect(shutdown.status == .succeeded)
        #expect(shutdown.stopOrder == ["first-screen", "database"])
    }
}
