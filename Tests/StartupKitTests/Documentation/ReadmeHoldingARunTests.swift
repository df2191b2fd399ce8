import StartupKit
import Testing

/// The README's "Holding a run" blocks, their StartupKit part compiled and run as written; the
/// UIKit and SwiftUI calls are stubbed (no machine here has them): `launch` is what the
/// `@MainActor let` makes, `rootViewTask` what `RootView`'s `.task` does.
extension ReadmeExampleTests {
    struct FeatureFlags: Sendable {
        let newHome: Bool
        static func fetch() async throws -> FeatureFlags { FeatureFlags(newHome: true) }
    }

    enum Feed {
        static func prefetch() async {}
    }

    @MainActor static func launch() throws -> StartupRun {
        var builder = StartupPlanBuilder()
        builder.add(Configuration())
        builder.add(Database())
        builder.add(FirstScreen())
        builder.add(
            "feature-flags", dependsOn: ["configuration"],
            options: CommandOptions(activation: .onDemand)
        ) { _ in try await FeatureFlags.fetch() }
        builder.addGate("first-frame", dependsOn: [FirstScreen.id])
        builder.add("prefetch-feed", dependsOn: ["first-frame"]) { _ in await Feed.prefetch() }
        return StartupOrchestrator(try builder.build()).start()
    }

    @MainActor static func rootViewTask(_ launch: StartupRun) async -> String {
        var state = "Loading…"
        do {
            try await launch.wait(for: [FirstScreen.id], timeout: .milliseconds(400))
            state = "Ready"
            launch.open("first-frame")
            let flags = try await launch.output(of: "feature-flags", as: FeatureFlags.self)
            state = flags.newHome ? "New home" : "Home"
        } catch {
            state = "\(error)"
        }
        return state
    }

    @MainActor @Test func holdingARun_appExample_runsAsTheReadmeSays() async throws {
        let launch = try Self.launch()
        let state = await Self.rootViewTask(launch)
        // A 400 ms wait can run out on a loaded machine; then the text says why.
        #expect(state == "New home" || state.contains("not done after 400ms"))
        launch.open("first-frame")
        let report = await launch.report()
        #expect(report.status == .succeeded)
        #expect(report["prefetch-feed"]?.status == .succeeded)
        // Requested only once the first screen was up in time.
        #expect(report["feature-flags"]?.status == (state == "New home" ? .succeeded : .notRequested))
    }

    @Test func holdingARun_serverExample_runsAsTheReadmeSays() async throws {
        var builder = StartupPlanBuilder()
        builder.add(Configuration())
        builder.add(Database())
        builder.add("http-routes") { _ in }
        builder.add("warm-cache", dependsOn: [Database.id]) { _ in }
        let plan = try builder.build()

        let run = StartupOrchestrator(plan, options: .init(maxConcurrency: 8)).start()
        do {
            try await run.wait(for: [Database.id, "http-routes"], timeout: .seconds(10))
        } catch {
            // The thread sanitizer's run, beside suites that start hundreds of processes, has kept the cooperative
            // threads (the run's too) busy for that long; then the wait says why, and the run still ends as written.
            #expect("\(error)".contains("not done after 10s"), "\(error)")
        }
        let pool = try await run.output(of: Database.self)
        let report = await run.report()
        #expect(pool.url == "postgres://db")
        #expect(report.criticalPath.first == "configuration" && report.wallTime >= .zero)
    }

    @Test func planWarnings_nameARequiredCommandThatDependsOnAnOptionalOne() throws {
        var builder = StartupPlanBuilder()
        builder.add("analytics", options: CommandOptions(isOptional: true)) { _ in }
        builder.add("reports", dependsOn: ["analytics"]) { _ in }
        let plan = try builder.build()
        #expect(
            plan.warnings.map(\.description) == [
                #""reports" is required but depends on "analytics", which is optional: if "analytics" fails, "reports" is skipped and the run fails"#
            ])
    }
}
