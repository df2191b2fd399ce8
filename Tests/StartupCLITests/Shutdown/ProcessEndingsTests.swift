import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a stop's ending reads: a kill names its cause.
@Suite struct ProcessEndingsTests {
    typealias StopEnding = ProcessEndings.StopEnding

    @Test func aKilledStop_namesWhatCausedTheKill() {
        #expect(StopEnding.killed(processes: 2, cause: .gracePeriodEnded).description == "killed after the grace period (2 processes)")
        #expect(StopEnding.killed(processes: 1, cause: .secondInterrupt).description == "killed at the second interrupt (1 process)")
        #expect(StopEnding.killed(processes: 3, cause: .noGracePeriod).description == "killed with no grace period (3 processes)")
        #expect(StopEnding.killed(processes: 1, cause: .secondInterrupt).name == "killed")
    }

    @Test func anOutcome_isAKillOnlyIfItKilledAProcess() {
        let stopped = ProcessOutcome(
            termination: .signaled(SIGKILL), cancellation: .kill, kill: ProcessKill(processes: 2, cause: .secondInterrupt))
        #expect(StopEnding(stopped, hasStopLine: false) == .killed(processes: 2, cause: .secondInterrupt))
        #expect(StopEnding(stopped, hasStopLine: false)?.killCause == .secondInterrupt)

        let goneBeforeTheKill = ProcessOutcome(
            termination: .signaled(SIGTERM), cancellation: .kill, kill: ProcessKill(processes: 0, cause: .gracePeriodEnded))
        #expect(StopEnding(goneBeforeTheKill, hasStopLine: false) == .exitedAfterSignal)
        #expect(StopEnding(ProcessOutcome(termination: .exited(0)), hasStopLine: false) == nil)
    }
}
