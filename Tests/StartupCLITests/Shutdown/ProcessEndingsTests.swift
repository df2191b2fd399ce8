import Testing

@testable import StartupCLI

/// How a stop's ending reads: a kill names its cause, and the shutdown's last line names the cause its kills share.
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
            termination: .signaled(9), cancellation: .kill, kill: ProcessKill(processes: 2, cause: .secondInterrupt))
        #expect(StopEnding(stopped, hasStopLine: false) == .killed(processes: 2, cause: .secondInterrupt))
        #expect(StopEnding(stopped, hasStopLine: false)?.killCause == .secondInterrupt)

        let goneBeforeTheKill = ProcessOutcome(
            termination: .signaled(15), cancellation: .kill, kill: ProcessKill(processes: 0, cause: .gracePeriodEnded))
        #expect(StopEnding(goneBeforeTheKill, hasStopLine: false) == .exitedAfterSignal)
        #expect(StopEnding(ProcessOutcome(termination: .exited(0)), hasStopLine: false) == nil)
    }

    @Test func theShutdownsLastLine_namesTheCauseItsKillsShare() {
        #expect(ShutdownRenderer.killedClause([]) == "")
        #expect(ShutdownRenderer.killedClause([.gracePeriodEnded]) == " (1 killed after the grace period)")
        #expect(ShutdownRenderer.killedClause([.secondInterrupt, .secondInterrupt]) == " (2 killed at the second interrupt)")
        #expect(ShutdownRenderer.killedClause([.gracePeriodEnded, .secondInterrupt, .secondInterrupt]) == " (3 killed)")
    }
}
