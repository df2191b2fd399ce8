import StartupKit
import Testing

// The documented `switch` of each public enum that may grow, with a `default` for the cases to
// come, compiled as written.

/// `StartupWaitError.Reason`'s.
private func isTimeOut(_ error: StartupWaitError) -> Bool {
    switch error.reason {
    case .timedOut: true
    default: false
    }
}

/// `StartupWaitError.Blocker.State`'s.
private func isRunning(_ blocker: StartupWaitError.Blocker) -> Bool {
    switch blocker.state {
    case .running: true
    default: false
    }
}

/// `PlanWarning`'s.
private func isAboutOnDemand(_ warning: PlanWarning) -> Bool {
    switch warning {
    case .onDemandNeededByEager: true
    default: false
    }
}

/// `ServiceEndPolicy`'s.
private func keepsOthersRunning(_ policy: ServiceEndPolicy) -> Bool {
    switch policy {
    case .keepRunning: true
    default: false
    }
}

/// `CommandStatus`'s.
private func mark(for status: CommandStatus) -> String {
    switch status {
    case .succeeded: "ok"
    case .failed, .timedOut: "failed"
    default: status.name
    }
}

@Suite struct GrowingEnumExampleTests {
    @Test func documentedSwitches_answerForTheirCases_andTheDefault() {
        #expect(isTimeOut(StartupWaitError(awaited: ["a"], reason: .timedOut(after: .seconds(1), holdUps: []))))
        #expect(!isTimeOut(StartupWaitError(awaited: ["a"], reason: .unknownCommand("a", suggestion: nil))))
        #expect(isRunning(.init(command: "a", state: .running(for: .seconds(1), attempt: 1), through: [])))
        #expect(!isRunning(.init(command: "a", state: .waitingForSlot, through: [])))
        #expect(isAboutOnDemand(.onDemandNeededByEager("a", eager: "b")))
        #expect(!isAboutOnDemand(.requiredDependsOnOptional("a", optional: "b")))
        #expect(keepsOthersRunning(.keepRunning) && !keepsOthersRunning(.shutDown))
        #expect(mark(for: .succeeded) == "ok" && mark(for: .timedOut(after: .seconds(1))) == "failed")
        #expect(mark(for: .cancelled) == "cancelled")
    }
}
