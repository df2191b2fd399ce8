import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine's stop decisions, driven input by input with made-up pids, times and snapshots: no process runs.
@Suite struct EngineStateMachineTests {
    /// A leader (100) in its group, a child of it in the group (101) and a grandchild that left the group (102).
    private static var family: ProcessSnapshot {
        [
            madeUpProcess(100, parent: 1, group: 100), madeUpProcess(101, parent: 100, group: 100),
            madeUpProcess(102, parent: 101, group: 102),
        ]
    }

    /// The tree `family` gives leader 100.
    private static let familyTree = NumberTree(leader: 100, members: [101, 102])

    @Test func stop_sendsTermToGroupAndTree_thenKillOnlyOnceTheGracePeriodIsOver() {
        var machine = TestMachine(start: .seconds(0))
        let source = SnapshotSource(Self.family)
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, pidfd: 7), token: 1)

        #expect(
            machine.stop([1], now: .seconds(0), snapshot: source.snapshot) == [
                .signalGroup(-100, SIGTERM), .signalTree(Self.familyTree, SIGTERM, outsideGroup: 100),
            ])
        #expect(machine.nextDeadline == .seconds(5))
        #expect(machine.escalateOverdueStops(now: .seconds(4.999), snapshot: source.snapshot) == [])
        #expect(source.taken == 1)
        #expect(
            machine.escalateOverdueStops(now: .seconds(5), snapshot: source.snapshot) == [
                .signalGroup(-100, SIGKILL), .signalTree(Self.familyTree, SIGKILL, outsideGroup: 100),
            ])
        #expect(machine.nextDeadline == nil)

        source.processes = [madeUpProcess(100, parent: 1, group: 100, zombie: true)]
        #expect(
            machine.childrenExited([(1, 0)], snapshot: source.snapshot) == [
                .closeDescriptor(7), .signalGroup(-100, SIGKILL), .signalTree(Self.familyTree, SIGKILL, outsideGroup: nil),
                .closeTree(Self.familyTree), .reap(1, pid: 100),
            ])
        #expect(
            machine.leaderReaped(1, waitStatus: SIGKILL) == [
                .resume(
                    10,
                    ChildExit(
                        termination: .signaled(SIGKILL), cancellation: .kill,
                        kill: ProcessKill(processes: 3, cause: .gracePeriodEnded)))
            ])
        #expect(!machine.hasRunningChildren)
    }

    @Test func stop_ofAChildStoppedAlreadyOrUnknown_doesNothingAndTakesNoSnapshot() {
        var machine = TestMachine(start: .seconds(0))
        let source = SnapshotSource(Self.family)
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)
        _ = machine.stop([1], now: .seconds(0), snapshot: source.snapshot)

        #expect(machine.stop([1, 2], now: .seconds(1), snapshot: source.snapshot) == [])
        #expect(source.taken == 1)
        #expect(machine.nextDeadline == .seconds(5))
    }

    @Test func stop_ofAForegroundChild_signalsTheChildItselfAndTheWholeTree() {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, foreground: true), token: 1)

        #expect(
            machine.stop([1], now: .seconds(0)) { Self.family } == [
                .signalGroup(100, SIGTERM), .signalTree(Self.familyTree, SIGTERM, outsideGroup: nil),
            ])
    }

    @Test func stop_withAZeroGracePeriod_killsAtOnceAndCountsTheKilledProcesses() {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, grace: .zero), token: 1)

        #expect(
            machine.stop([1], now: .seconds(0)) { Self.family } == [
                .signalGroup(-100, SIGKILL), .signalTree(Self.familyTree, SIGKILL, outsideGroup: 100),
            ])
        #expect(machine.nextDeadline == nil)
        expectReapedAsKilled(&machine, ProcessKill(processes: 3, cause: .noGracePeriod))
    }

    @Test func stop_leftToTheStopLine_waitsForTheLine_thenSendsTermAfterTheGracePeriod_andKillAfterAnother() {
        var machine = TestMachine(start: .seconds(0))
        let leader: ProcessSnapshot = [madeUpProcess(100, parent: 1, group: 100)]
        let tree = NumberTree(leader: 100)
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, grace: .seconds(4), signalsWhenStopped: false), token: 1)

        #expect(machine.stop([1], now: .seconds(0)) { leader } == [])
        // The stop line runs as long as it needs: no deadline until it has ended.
        #expect(machine.nextDeadline == nil)
        #expect(machine.escalateOverdueStops(now: .seconds(30)) { leader } == [])
        machine.stopLinesEnded([1], now: .seconds(30))
        #expect(machine.nextDeadline == .seconds(34))
        #expect(machine.escalateOverdueStops(now: .seconds(33.9)) { leader } == [])
        #expect(
            machine.escalateOverdueStops(now: .seconds(34)) { leader } == [
                .signalGroup(-100, SIGTERM), .signalTree(tree, SIGTERM, outsideGroup: 100),
            ])
        #expect(machine.nextDeadline == .seconds(38))
        #expect(machine.escalateOverdueStops(now: .seconds(37.9)) { leader } == [])
        #expect(
            machine.escalateOverdueStops(now: .seconds(38)) { leader } == [
                .signalGroup(-100, SIGKILL), .signalTree(tree, SIGKILL, outsideGroup: 100),
            ])
        expectReapedAsKilled(&machine, ProcessKill(processes: 1, cause: .gracePeriodEnded))
    }

    @Test func killAtOnce_afterTheGracePeriodKilledAChild_leavesItsCauseAsItWas() {
        var machine = TestMachine(start: .seconds(0))
        let leader: ProcessSnapshot = [madeUpProcess(100, parent: 1, group: 100)]
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)
        _ = machine.stop([1], now: .seconds(0)) { leader }
        _ = machine.escalateOverdueStops(now: .seconds(5)) { leader }

        #expect(machine.killAtOnce(now: .seconds(5.001)) { leader } == [])
        expectReapedAsKilled(&machine, ProcessKill(processes: 1, cause: .gracePeriodEnded))
    }

    @Test func killAtOnce_killsTheChildrenBeingStopped_andMakesLaterStopsKillAtOnce() {
        var machine = TestMachine(start: .seconds(0))
        let processes: ProcessSnapshot = [madeUpProcess(100, parent: 1, group: 100), madeUpProcess(200, parent: 1, group: 200)]
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)
        machine.childStarted(madeUpChild(pid: 200, waiter: 20), token: 2)
        _ = machine.stop([1], now: .seconds(0)) { processes }

        #expect(
            machine.killAtOnce(now: .seconds(1)) { processes } == [
                .signalGroup(-100, SIGKILL), .signalTree(NumberTree(leader: 100), SIGKILL, outsideGroup: 100),
            ])
        #expect(machine.killsAtOnce)
        #expect(machine.killAtOnce(now: .seconds(2)) { processes } == [])
        #expect(
            machine.stop([2], now: .seconds(2)) { processes } == [
                .signalGroup(-200, SIGKILL), .signalTree(NumberTree(leader: 200), SIGKILL, outsideGroup: 200),
            ])
        #expect(machine.nextDeadline == nil)
        expectReapedAsKilled(&machine, ProcessKill(processes: 1, cause: .secondInterrupt))
        expectReapedAsKilled(&machine, ProcessKill(processes: 1, cause: .secondInterrupt), token: 2, waiter: 20)
    }

    @Test func killAtOnce_killsAChildLeftToItsStopLine() {
        var machine = TestMachine(start: .seconds(0))
        let leader: ProcessSnapshot = [madeUpProcess(100, parent: 1, group: 100)]
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, signalsWhenStopped: false), token: 1)
        _ = machine.stop([1], now: .seconds(0)) { leader }

        #expect(
            machine.killAtOnce(now: .seconds(1)) { leader } == [
                .signalGroup(-100, SIGKILL), .signalTree(NumberTree(leader: 100), SIGKILL, outsideGroup: 100),
            ])
        expectReapedAsKilled(&machine, ProcessKill(processes: 1, cause: .secondInterrupt))
    }

    @Test func exits_ofSeveralStoppedChildren_takeOneSnapshotAndAreHandledInOrder() {
        var machine = TestMachine(start: .seconds(0))
        let source = SnapshotSource([madeUpProcess(100, parent: 1, group: 100), madeUpProcess(200, parent: 1, group: 200)])
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, pidfd: 7), token: 1)
        machine.childStarted(madeUpChild(pid: 200, waiter: 20, pidfd: 8), token: 2)
        _ = machine.stop([1, 2], now: .seconds(0), snapshot: source.snapshot)

        let first = NumberTree(leader: 100)
        let second = NumberTree(leader: 200)
        #expect(
            machine.childrenExited([(2, 0), (1, 0)], snapshot: source.snapshot) == [
                .closeDescriptor(8), .signalGroup(-200, SIGKILL), .signalTree(second, SIGKILL, outsideGroup: nil),
                .closeTree(second), .reap(2, pid: 200),
                .closeDescriptor(7), .signalGroup(-100, SIGKILL), .signalTree(first, SIGKILL, outsideGroup: nil),
                .closeTree(first), .reap(1, pid: 100),
            ])
        #expect(source.taken == 2)
    }

    @Test func exit_ofAChildNotStopped_reapsItWithoutSignalsOrSnapshot() {
        var machine = TestMachine(start: .seconds(0))
        let source = SnapshotSource(Self.family)
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, pidfd: 7), token: 1)

        #expect(
            machine.childrenExited([(1, 0)], snapshot: source.snapshot) == [
                .closeDescriptor(7), .closeTree(NumberTree(leader: 100)), .reap(1, pid: 100),
            ])
        #expect(source.taken == 0)
        #expect(machine.leaderReaped(1, waitStatus: 0) == [.resume(10, ChildExit(termination: .exited(0), cancellation: nil))])
        #expect(machine.token(ofPid: 100) == nil)
    }

    @Test func exit_whoseWaitFailed_signalsOnlyTheTreeAndReportsTheChildLost() {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)
        _ = machine.stop([1], now: .seconds(0)) { Self.family }

        let lost = ChildExit(
            termination: .failedToStart(errno: ECHILD, message: "lost track of process 100: \(errnoDescription(ECHILD))"),
            cancellation: .terminate)
        #expect(
            machine.childrenExited([(1, ECHILD)]) { Self.family } == [
                .signalTree(Self.familyTree, SIGKILL, outsideGroup: nil), .closeTree(Self.familyTree), .resume(10, lost),
            ])
    }

    @Test func lingeringTree_isWatchedAndKilledOnceTheGracePeriodIsOver() {
        var machine = TestMachine(start: .seconds(0))
        let source = SnapshotSource([madeUpProcess(100, parent: 1, group: 100), madeUpProcess(101, parent: 100, group: 100)])
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)
        _ = machine.stop([1], now: .seconds(0), snapshot: source.snapshot)

        // The leader dies of its SIGTERM; 101, reparented, still shuts down.
        source.processes = [madeUpProcess(100, parent: 1, group: 100, zombie: true), madeUpProcess(101, parent: 1, group: 100)]
        #expect(machine.childrenExited([(1, 0)], snapshot: source.snapshot) == [.reap(1, pid: 100)])
        #expect(machine.leaderReaped(1, waitStatus: SIGTERM) == [])
        let tree = NumberTree(leader: 100, members: [101], leaderReaped: true)

        #expect(machine.watchLingeringStops(now: .seconds(2), snapshot: source.snapshot) == [])
        #expect(machine.nextDeadline == TestInstant.seconds(2).advanced(by: TestMachine.lingeringInterval))
        let taken = source.taken
        #expect(machine.watchLingeringStops(now: .seconds(2.01), snapshot: source.snapshot) == [])
        #expect(source.taken == taken)
        #expect(machine.watchLingeringStops(now: .seconds(5), snapshot: source.snapshot) == [.signalTree(tree, SIGKILL, outsideGroup: nil)])
        #expect(
            machine.watchLingeringStops(now: TestInstant.seconds(5).advanced(by: TestMachine.lingeringInterval), snapshot: source.snapshot)
                == lingeringTreeKilled(tree, cause: .gracePeriodEnded))
        #expect(machine.nextDeadline == nil)
    }

    @Test func lingeringTree_thatEndsWithinTheGracePeriod_resumesTheTaskWithoutKill() {
        var machine = stoppedChildWhoseTreeLingers()

        let tree = NumberTree(leader: 100, members: [101], leaderReaped: true)
        #expect(
            machine.watchLingeringStops(now: .seconds(1)) { [] } == [
                .closeTree(tree), .resume(10, ChildExit(termination: .signaled(SIGTERM), cancellation: .terminate)),
            ])
    }

    @Test func lingeringTree_leftToTheStopLine_getsTermThenKill() {
        var machine = TestMachine(start: .seconds(0))
        let rest: ProcessSnapshot = [madeUpProcess(101, parent: 1, group: 100)]
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, grace: .seconds(4), signalsWhenStopped: false), token: 1)
        _ = machine.stop([1], now: .seconds(0)) {
            [madeUpProcess(100, parent: 1, group: 100), madeUpProcess(101, parent: 100, group: 100)]
        }
        _ = machine.childrenExited([(1, 0)]) { rest }
        _ = machine.leaderReaped(1, waitStatus: 0)

        let tree = NumberTree(leader: 100, members: [101], leaderReaped: true)
        // What is left waits for the stop line, however long it runs, then has the grace period.
        #expect(machine.watchLingeringStops(now: .seconds(20)) { rest } == [])
        machine.stopLinesEnded([1], now: .seconds(20))
        #expect(machine.watchLingeringStops(now: .seconds(23.9)) { rest } == [])
        #expect(machine.watchLingeringStops(now: .seconds(24)) { rest } == [.signalTree(tree, SIGTERM, outsideGroup: nil)])
        #expect(machine.watchLingeringStops(now: .seconds(27.9)) { rest } == [])
        #expect(machine.watchLingeringStops(now: .seconds(28)) { rest } == [.signalTree(tree, SIGKILL, outsideGroup: nil)])
    }

    @Test func killAtOnce_killsALingeringTreeAtOnce_andNoStopLingersAfterIt() {
        var machine = TestMachine(start: .seconds(0))
        let rest: ProcessSnapshot = [madeUpProcess(101, parent: 1, group: 100)]
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)
        _ = machine.stop([1], now: .seconds(0)) {
            [madeUpProcess(100, parent: 1, group: 100), madeUpProcess(101, parent: 100, group: 100)]
        }
        _ = machine.childrenExited([(1, 0)]) { rest }
        _ = machine.leaderReaped(1, waitStatus: SIGTERM)

        let tree = NumberTree(leader: 100, members: [101], leaderReaped: true)
        #expect(machine.killAtOnce(now: .seconds(1)) { rest } == [.signalTree(tree, SIGKILL, outsideGroup: nil)])
        #expect(
            machine.watchLingeringStops(now: .seconds(1.5)) { rest } == lingeringTreeKilled(tree, cause: .secondInterrupt))

        machine.childStarted(madeUpChild(pid: 200, waiter: 20), token: 2)
        _ = machine.stop([2], now: .seconds(1)) {
            [madeUpProcess(200, parent: 1, group: 200), madeUpProcess(201, parent: 200, group: 200)]
        }
        let exited = machine.childrenExited([(2, 0)]) { [madeUpProcess(201, parent: 1, group: 200)] }
        #expect(exited.last == .reap(2, pid: 200))
        #expect(exited.contains(.signalGroup(-200, SIGKILL)))
    }

    @Test func stopWatchers_areToldWhatIsLeft_andReleasedOnceNoChildLaunchOrLingeringStopIsLeft() {
        var machine = TestMachine(start: .seconds(0))
        let processes: ProcessSnapshot = [madeUpProcess(100, parent: 1, group: 100), madeUpProcess(200, parent: 1, group: 200)]
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, grace: .seconds(5)), token: 1)
        machine.childStarted(madeUpChild(pid: 200, waiter: 20, grace: .seconds(3)), token: 2)
        _ = machine.stop([1, 2], now: .seconds(0)) { processes }
        _ = machine.launchRequested(madeUpLaunch(3), processors: 0)

        #expect(
            machine.stopEveryChild(for: ["watcher"], now: .seconds(2)) { processes } == [
                .withdraw([3]), .tellStopWatchers(["watcher"]),
            ])
        #expect(machine.launchesWithdrawn([], of: [3]) == [.takeArrivals(awaiting: [3])])
        #expect(
            machine.tellStopWatchers(["watcher"], now: .seconds(2)) == [
                .tellRemaining("watcher", count: 3, longestGrace: .seconds(3))
            ])
        _ = machine.childrenExited([(1, 0)]) { [] }
        _ = machine.leaderReaped(1, waitStatus: SIGTERM)
        _ = machine.childrenExited([(2, 0)]) { [] }
        #expect(machine.releaseStopWatchers() == [])  // 2 is being reaped, 3 is launching
        _ = machine.leaderReaped(2, waitStatus: SIGTERM)
        #expect(machine.releaseStopWatchers() == [])  // 3 is launching
        _ = machine.launchesArrived([madeUpArrival(3, failure: SpawnFailure(errno: ENOENT, message: "no"))], now: .seconds(2)) { [] }
        #expect(machine.releaseStopWatchers() == [.release("watcher")])
        #expect(machine.releaseStopWatchers() == [])
    }

    @Test func stopWatchers_waitForALingeringStop() {
        var machine = stoppedChildWhoseTreeLingers()

        #expect(machine.stopEveryChild(for: ["watcher"], now: .seconds(1)) { [] } == [.tellStopWatchers(["watcher"])])
        #expect(
            machine.tellStopWatchers(["watcher"], now: .seconds(1)) == [
                .tellRemaining("watcher", count: 1, longestGrace: .seconds(4))
            ])
        #expect(machine.releaseStopWatchers() == [])
        _ = machine.watchLingeringStops(now: .seconds(2)) { [] }
        #expect(machine.releaseStopWatchers() == [.release("watcher")])
    }

    @Test func stopWatchers_withNothingLeft_areToldNothingAndReleased() {
        var machine = TestMachine(start: .seconds(0))

        #expect(machine.stopEveryChild(for: ["a", "b"], now: .seconds(0)) { [] } == [.tellStopWatchers(["a", "b"])])
        #expect(machine.tellStopWatchers(["a", "b"], now: .seconds(0)) == [])
        #expect(machine.releaseStopWatchers() == [.release("a"), .release("b")])
    }

    /// The child of token 1 (waited for by 10) exits after its SIGKILL: its leader is reaped and its task is told it
    /// was killed, with `kill`.
    private func expectReapedAsKilled(
        _ machine: inout TestMachine, _ kill: ProcessKill, token: UInt64 = 1, waiter: Int = 10,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        _ = machine.childrenExited([(token, 0)]) { [] }
        #expect(
            machine.leaderReaped(token, waitStatus: SIGKILL) == [
                .resume(waiter, ChildExit(termination: .signaled(SIGKILL), cancellation: .kill, kill: kill))
            ], sourceLocation: sourceLocation)
    }

    /// The end of child 1's lingering `tree` (waited for by 10, its leader dead of SIGTERM) at the first look after
    /// the one process left of it was killed for `cause`: the task is resumed then, whether or not that process is
    /// gone (one stuck in the kernel must not hold the stop).
    private func lingeringTreeKilled(_ tree: NumberTree, cause: ProcessKill.Cause) -> [TestMachine.Action] {
        [
            .closeTree(tree),
            .resume(
                10, ChildExit(termination: .signaled(SIGTERM), cancellation: .kill, kill: ProcessKill(processes: 1, cause: cause))),
        ]
    }

    /// Child 1 (pid 100, waited for by 10) was stopped; its leader exited and was reaped while 101, which it started,
    /// still runs: a lingering stop with the default grace period.
    private func stoppedChildWhoseTreeLingers() -> TestMachine {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)
        _ = machine.stop([1], now: .seconds(0)) {
            [madeUpProcess(100, parent: 1, group: 100), madeUpProcess(101, parent: 100, group: 100)]
        }
        _ = machine.childrenExited([(1, 0)]) { [madeUpProcess(101, parent: 1, group: 100)] }
        _ = machine.leaderReaped(1, waitStatus: SIGTERM)
        return machine
    }
}
