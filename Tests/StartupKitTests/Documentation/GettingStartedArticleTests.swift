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

/// `PlanIssue`'s documented `switch`, with a `default` for the kinds to come, compiled as written.
func line(for issue: PlanIssue) -> String {
    switch issue {
    case .cycle(let path, _): "cycle through \(path.count - 1) commands"
    default: issue.description
    }
}

@Suite struct GettingStartedArticleTests {
    @Test func planIssuesDocumentedSwitch_coversTheKindsToCome() {
        #expect(line(for: .cycle(["a", "b", "a"], commandIndex: 0)) == "cycle through 2 commands")
        #expect(line(for: .invalidID("a b", commandIndex: 0)).hasPrefix(#"invalid command id "a b""#))
    }

    @Test func aNonisolatedCommandType_runs() async throws {
        var builder = StartupPlanBuilder()
        builder.add(Analytics())
        let report = await StartupOrchestrator(try builder.build(), options: .init(observers: [PrintingObserver()])).run()
        #expect(report["analytics"]?.status == .succeeded)
    }
}
