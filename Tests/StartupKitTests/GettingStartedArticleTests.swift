import StartupKit
import Testing

/// The "Getting started" article's command for an app target that runs on the main actor by default, compiled as
/// written (`nonisolated` on the type) and run.
nonisolated struct Analytics: StartupCommand {
    static let id: CommandID = "analytics"
    func execute(_ context: StartupContext) async throws {}
}

/// `StartupEvent`'s documented `switch`, with a `default` for the cases to come, compiled as written.
struct PrintingObserver: StartupObserver {
    func observe(_ event: StartupEvent) {
        switch event {
        case .commandFinished(let id, let status, _, _, _): print(id, status.name)
        case .serviceEnded(let error, _): print(error)
        default: break
        }
    }
}

@Suite struct GettingStartedArticleTests {
    @Test func aNonisolatedCommandType_runs() async throws {
        var builder = StartupPlanBuilder()
        builder.add(Analytics())
        let report = await StartupOrchestrator(try builder.build(), options: .init(observers: [PrintingObserver()])).run()
        #expect(report["analytics"]?.status == .succeeded)
    }
}
