import Testing

@testable import StartupKit

#if canImport(os)
    import os
#endif

/// The first screen's work, stubbed.
@MainActor private func showHome() {}

/// The Launch article's blocks (and the README's launch section), compiled and run as written,
/// with the SDKs stubbed. The signpost tracer compiles where `os` exists (Apple platforms).
extension ReadmeExampleTests {
    struct AnalyticsClient: Sendable {
        let endpoint: String
        static func configure(endpoint: String) -> AnalyticsClient { AnalyticsClient(endpoint: endpoint) }
    }

    enum CrashReporter {
        static func start() {}
    }

    struct Analytics: BlockingStartupCommand {
        static let id: CommandID = "analytics"
        let dependencies: [CommandID] = [Configuration.id]
        func execute(_ context: StartupContext) throws -> AnalyticsClient {
            AnalyticsClient.configure(endpoint: try context.output(of: Configuration.self).analyticsURL)
        }
    }

    @Test func launchArticle_blockingCommandsAndTheFirstScreenFirst_runAsWritten() async throws {
        var builder = StartupPlanBuilder()
        builder.add(Configuration())
        builder.add(Analytics())
        builder.addBlocking("crash-reporting") { _ in CrashReporter.start() }
        builder.add(Database())
        builder.addOnMainActor(
            "first-screen", dependsOn: [Database.id],
            options: CommandOptions(priority: .high)
        ) { _ in showHome() }
        let options = StartupOrchestrator.Options(maxConcurrency: 4, blockingThreads: 8)
        let plan = try builder.build()
        let run = StartupOrchestrator(plan, options: options).start()
        try await run.wait(for: ["first-screen"], timeout: .seconds(60))

        #expect(plan.effectivePriority(of: Configuration.id) == .high, "the first screen raises its chain")
        #expect(plan.effectivePriority(of: Analytics.id) == .normal)
        #expect(try await run.output(of: Analytics.self).endpoint == "https://analytics.example")
        let report = await run.report()
        #expect(report.status == .succeeded)
        #expect(report.commands.filter(\.ranOnBlockingPool).map(\.id) == ["analytics", "crash-reporting"])
        #expect(report[Database.id]?.effectivePriority == .high)
    }

    #if canImport(os)
        struct SignpostTracer: StartupTracer {
            let log = OSLog(subsystem: "com.example.app", category: "startup")

            func attemptWillStart(_ command: CommandID, attempt: Int) {
                os_signpost(.begin, log: log, name: "command", signpostID: signpostID(command), "%{public}s", command.rawValue)
            }

            func attemptDidEnd(_ command: CommandID, attempt: Int, error: (any Error)?) {
                os_signpost(.end, log: log, name: "command", signpostID: signpostID(command), "%{public}s", error == nil ? "ok" : "failed")
            }

            private func signpostID(_ command: CommandID) -> OSSignpostID {
                OSSignpostID(UInt64(truncatingIfNeeded: command.rawValue.hashValue))
            }
        }

        @Test func launchArticle_signpostTracer_isAnOption() {
            let options = StartupOrchestrator.Options(tracer: SignpostTracer())
            #expect(options.tracer != nil)
        }
    #endif
}

/// The Launch article's "Composing a launch from modules" block, as written, with the SDKs
/// stubbed; run for every build configuration and launch context.
@Suite struct LaunchArticleModulesTests {
    enum Ads { static func start() async {} }
    enum FeedCache { static func open() async throws {} }
    enum Flags { static func load() {} }

    struct AdsKit: StartupModule {
        let name = "AdsKit"
        func register(into builder: inout StartupPlanBuilder) {
            builder.add("ads", options: CommandOptions(isOptional: true)) { _ in await Ads.start() }
        }
    }

    struct FeedKit: StartupModule {
        let name = "FeedKit"
        func register(into builder: inout StartupPlanBuilder) {
            builder.add("feed-cache") { _ in try await FeedCache.open() }
            // Flags are read when something asks for them, not at every launch.
            builder.add("feature-flags", options: CommandOptions(activation: .onDemand)) { _ in Flags.load() }
        }
    }

    enum LaunchContext: CaseIterable { case foreground, background, prewarmed, shareExtension }

    func launchPlan(for context: LaunchContext, debug: Bool) throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        builder.add(module: AdsKit())
        builder.add(module: FeedKit())
        // The first screen runs after ads if ads runs, whether it succeeds or not; it never reads
        // the ads' output, and it is not skipped when ads fails or is removed.
        builder.addOnMainActor(
            "first-screen", dependsOn: ["feed-cache"], after: ["ads"], options: CommandOptions(priority: .high)
        ) { _ in showHome() }
        if debug {
            builder.remove("ads")  // No ads SDK in debug builds.
        }
        switch context {
        case .foreground:
            break
        case .background, .prewarmed:
            // Nothing on screen yet: no ads, and a cheaper first screen.
            builder.remove("ads")
            builder.remove("first-screen")
            builder.addOnMainActor("first-screen", dependsOn: ["feed-cache"]) { _ in }
        case .shareExtension:
            // An extension links the same modules but needs only the cache.
            builder.remove("ads")
            builder.remove("first-screen")
        }
        return try builder.build()
    }

    @Test(arguments: LaunchContext.allCases, [false, true])
    func launchArticle_modulesPerContextAndConfiguration_runAsWritten(context: LaunchContext, debug: Bool) async throws {
        let plan = try launchPlan(for: context, debug: debug)
        let report = await StartupOrchestrator(plan).run()
        #expect(report.status == .succeeded)
        #expect(report["feature-flags"]?.status == .notRequested)
        #expect(plan.contains("ads") == (context == .foreground && !debug))
        #expect(plan.contains("first-screen") == (context != .shareExtension))
        if context == .foreground, !debug, let ads = report["ads"]?.endOffset, let screen = report["first-screen"]?.startOffset {
            #expect(screen >= ads)
        }
        #expect(report.timeByModule().map(\.module).contains("FeedKit"))
    }
}
