import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stopped service, or a stop line, is cut short only when the second interrupt is what killed its processes,
/// whenever that interrupt was noticed, and whether its leader was still there or a wrapper shell had died of its
/// SIGTERM; a stop line also when the second interrupt kept it from starting.
@Suite struct StopCutShortTests {
    private func stopped(_ termination: Termination, kill: ProcessKill?) -> ProcessOutcome {
        ProcessOutcome(termination: termination, cancellation: kill == nil ? .terminate : .kill, kill: kill)
    }

    @Test func aServiceKilledByTheSecondInterrupt_isCutShort_leaderOrLingeringTree() {
        let leader = stopped(.signaled(SIGKILL), kill: ProcessKill(processes: 1, cause: .secondInterrupt))
        #expect(StopCutShort(service: leader)?.description == "killed: interrupted again")
        // The wrapper shell died of its SIGTERM; the server it started was still there at the second interrupt.
        let lingering = stopped(.signaled(SIGTERM), kill: ProcessKill(processes: 1, cause: .secondInterrupt))
        #expect(StopCutShort(service: lingering)?.description == "killed: interrupted again")
    }

    @Test func aServiceKilledAfterItsGracePeriod_orGoneBeforeTheKill_orStoppedCleanly_isNotCutShort() {
        #expect(StopCutShort(service: stopped(.signaled(SIGKILL), kill: ProcessKill(processes: 1, cause: .gracePeriodEnded))) == nil)
        #expect(StopCutShort(service: stopped(.signaled(SIGKILL), kill: ProcessKill(processes: 1, cause: .noGracePeriod))) == nil)
        #expect(StopCutShort(service: stopped(.signaled(SIGTERM), kill: ProcessKill(processes: 0, cause: .secondInterrupt))) == nil)
        #expect(StopCutShort(service: stopped(.signaled(SIGTERM), kill: nil)) == nil)
        #expect(StopCutShort(service: ProcessOutcome(termination: .exited(1))) == nil)
    }

    @Test func aStopLineKilledByTheSecondInterrupt_isCutShort_oneKilledAtItsTime_failsEvenIfTheInterruptCameThen() {
        let interrupted = stopped(.signaled(SIGKILL), kill: ProcessKill(processes: 1, cause: .secondInterrupt))
        #expect(StopCutShort(stopLine: interrupted, noticeWasSent: true)?.description == "stop line killed: interrupted again")
        let overItsTime = stopped(.signaled(SIGKILL), kill: ProcessKill(processes: 1, cause: .noGracePeriod))
        #expect(StopCutShort(stopLine: overItsTime, noticeWasSent: true) == nil)
        #expect(StopCutShort(stopLine: ProcessOutcome(termination: .exited(1)), noticeWasSent: true) == nil)
    }

    @Test func aStopLineNotStarted_isCutShortOnlyOnceTheSecondInterruptCame() {
        let notStarted = ProcessOutcome(termination: .failedToStart(errno: ECANCELED, message: "cancelled before it started"))
        #expect(StopCutShort(stopLine: notStarted, noticeWasSent: true)?.description == "stop line not run: interrupted again")
        #expect(StopCutShort(stopLine: notStarted, noticeWasSent: false) == nil)
    }
}
