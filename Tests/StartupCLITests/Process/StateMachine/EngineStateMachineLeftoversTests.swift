import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child stopped as it exits by itself (``ChildLaunch/stopsTreeOnExit``, a service): what its leader left is stopped
/// with the grace period before its task hears of the exit. Made-up pids, times and snapshots: no process runs.
@Suite struct EngineStateMachineLeftoversTests {
    /// The leader (100, exited, unreaped), a child of it left in its group (101) and one that left the group (102).
    private static var leftovers: ProcessSnapshot {
        [
            madeUpProcess(100, parent: 1, group: 100, zombie: true), madeUpProcess(101, parent: 100, group: 100),
            madeUpProcess(102, parent: 101, group: 102),
        ]
    }

    /// A child with leader 100 and task 10, killed after five seconds.
    private func child(stopsTreeOnExit: Bool) -> TestMachine.Child {
        TestMachine.Child(
            pid: 100, isForeground: false, pidfd: -1, waiter: 10, captureDescriptor: nil, gracePeriod: .seconds(5),
            signalsWhenStopped: true, tree: NumberTree(leader: 100), stopsTreeOnExit: stopsTreeOnExit)
    }

    @Test func aLeaderThatExitsByItself_hasItsLeftoversStopped_thenKilledAfterTheGracePeriod_beforeItsTaskIsResumed() {
        var machine = TestMachine(start: .seconds(0))
        let source = SnapshotSource(Self.leftovers)
        machine.childStarted(child(stopsTreeOnExit: true), token: 1)
        let tree = NumberTree(leader: 100, members: [101, 102])

        #expect(
            machine.childrenExited([(1, 0)], now: .seconds(3), snapshot: source.snapshot) == [
                .signalGroup(-100, SIGTERM), .signalTree(tree, SIGTERM, outsideGroup: 100), .reap(1, pid: 100),
            ])
        #expect(machine.leaderReaped(1, waitStatus: 1 << 8) == [], "what it left still runs")
        #expect(machine.watchLingeringStops(now: .seconds(7.9), snapshot: source.snapshot) == [])
        var reaped = tree
        reaped.leaderReaped = true
        #expect(
            machine.watchLingeringStops(now: .seconds(8), snapshot: source.snapshot) == [.signalTree(reaped, SIGKILL, outsideGroup: nil)])
        source.processes = []
        #expect(
            machine.watchLingeringStops(now: .seconds(8.1), snapshot: source.snapshot) == [
                .closeTree(reaped),
                .resume(
                    10,
                    ChildExit(
                        termination: .exited(1), cancellation: .kill, kill: ProcessKill(processes: 2, cause: .gracePeriodEnded))),
            ])
    }

    @Test func aLeaderThatExitsByItself_withNothingLeft_isResumedWithItsOwnExit() {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(child(stopsTreeOnExit: true), token: 1)
        let exited = machine.childrenExited([(1, 0)], now: .seconds(3)) { [madeUpProcess(100, parent: 1, group: 100, zombie: true)] }
        #expect(exited.contains(.reap(1, pid: 100)), "\(exited)")
        #expect(machine.leaderReaped(1, waitStatus: 1 << 8) == [.resume(10, ChildExit(termination: .exited(1), cancellation: .terminate))])
    }

    @Test func withoutTheFlag_whatALeaderLeavesKeepsRunning() {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(child(stopsTreeOnExit: false), token: 1)
        #expect(
            machine.childrenExited([(1, 0)]) { Self.leftovers } == [.closeTree(NumberTree(leader: 100)), .reap(1, pid: 100)])
    }
}
