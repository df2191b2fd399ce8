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
