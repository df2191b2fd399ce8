import StartupKit
import StartupLifecycle
import Testing

// The `switch` example in the documentation of StartupLifecycle's growing enum, compiled here.

/// `LifecycleActivity`'s.
private func stopTime(_ activity: LifecycleActivity) -> Duration? {
    switch activity {
    case .stopFinished(_, _, let start?, let end): end - start
    default: nil
    }
}

@Suite struct LifecycleGrowingEnumExampleTests {
    @Test func documentedSwitch_answersForItsCase_andTheDefault() {
        #expect(stopTime(.stopFinished("a", status: .succeeded, startOffset: .seconds(1), at: .seconds(3))) == .seconds(2))
        #expect(stopTime(.stopStarted("a", at: .zero)) == nil)
    }
}
