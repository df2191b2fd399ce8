import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine's launch decisions (who makes a spawn, and what becomes of a launch that arrives, fails, is stopped or
/// exits before it is taken in), driven input by input with made-up tokens and pids: no process runs.
@Suite struct EngineStateMachineLaunchesTests {
    /// The leader of the child made for token 1.
    private static var leader: ProcessSnapshot { [madeUpProcess(100, parent: 1, group: 100)] }

    @Test func launchRequested_isSpawnedByTheLoopWhileNoMoreChildrenThanProcessors_elseSubmitted() {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)

        #expect(machine.launchRequested(madeUpLaunch(2), processors: 3) == [.spawn(madeUpLaunch(2))])
        #expect(machine.launchRequested(madeUpLaunch(3), processors: 3) == [.spawn(madeUpLaunch(3))])
        #expect(machine.launchRequested(madeUpLaunch(4), processors: 3) == [.submit(madeUpLaunch(4))])
        #expect(machine.launchingTokens.sorted() == [2, 3, 4])
    }

    @Test func launchArrived_takesTheChildIn_andWatchesAnExitThatWakesNothing() {
        var machine = launching([1, 2])

        #expect(
            machine.launchesArrived(
                [madeUpArrival(1, pid: 100, pidfd: 7), madeUpArrival(2, pid: 200, exitWakesLoop: false)],
                now: .seconds(0)
            ) { [] } == [.announceSpawn(madeUpLaunch(1), pid: 100), .announceSpawn(madeUpLaunch(2), pid: 200), .watchExit(2, pid: 200)])
        #expect(machine.token(ofPid: 100) == 1)
        #expect(machine.token(ofPid: 200) == 2)
        #expect(machine.phases[1]?.runningChild?.pidfd == 7)
        #expect(!machine.launchesPending)
    }

    @Test func launchThatFailed_resumesItsTaskWithTheFailure() {
        var machine = launching([1])
        let failure = SpawnFailure(errno: ENOENT, message: "cannot run \"nope\"")

        #expect(
            machine.launchesArrived([madeUpArrival(1, failure: failure)], now: .seconds(0)) { [] } == [
                .resume(10, ChildExit(termination: .failedToStart(errno: ENOENT, message: "cannot run \"nope\""), cancellation: nil))
            ])
        #expect(!machine.hasRunningChildren)
        #expect(!machine.launchesPending)
    }

    @Test func launchNeverRequested_hasItsPidfdDropped() {
        var machine = TestMachine(start: .seconds(0))

        #expect(machine.launchesArrived([madeUpArrival(9, pid: 900, pidfd: 7)], now: .seconds(0)) { [] } == [.dropPidfd(7)])
        #expect(!machine.hasRunningChildren)
    }

    @Test func stop_whileStillLaunching_isAppliedWhenTheChildArrives() {
        var machine = launching([1])

        #expect(machine.stop([1], now: .seconds(0)) { Self.leader } == [.withdraw([1])])
        #expect(machine.launchesWithdrawn([], of: [1]) == [.takeArrivals(awaiting: [1])])
        #expect(
            machine.launchesArrived([madeUpArrival(1, pid: 100)], now: .seconds(1)) { Self.leader } == [
                .announceSpawn(madeUpLaunch(1), pid: 100), .signalGroup(-100, SIGTERM),
                .signalTree(NumberTree(leader: 100), SIGTERM, outsideGroup: 100),
            ])
        #expect(machine.nextDeadline == .seconds(6))
    }

    @Test func stop_ofLaunchesNotBegun_resumesTheirTasks_andAwaitsTheOthers() {
        var machine = launching([1, 2])
        machine.childStarted(madeUpChild(pid: 300, waiter: 30), token: 3)

        #expect(
            machine.stop([1, 2, 3], now: .seconds(0)) { [madeUpProcess(300, parent: 1, group: 300)] } == [
                .withdraw([1, 2]), .signalGroup(-300, SIGTERM), .signalTree(NumberTree(leader: 300), SIGTERM, outsideGroup: 300),
            ])
        #expect(
            machine.launchesWithdrawn([1], of: [1, 2]) == [.resume(10, MadeUpLaunch.withdrawnExit), .takeArrivals(awaiting: [2])])
        #expect(machine.launchingTokens.sorted() == [2])
    }

    @Test func exit_seenBeforeTheLaunchArrived_isAppliedWhenItArrives() {
        var machine = launching([1])

        #expect(machine.childrenExited([(1, 0)]) { [] } == [.takeArrivals(awaiting: [1])])
        #expect(
            machine.launchesArrived([madeUpArrival(1, pid: 100, pidfd: 7)], now: .seconds(0)) { [] } == [
                .announceSpawn(madeUpLaunch(1), pid: 100), .closeDescriptor(7), .closeTree(NumberTree(leader: 100)), .reap(1, pid: 100),
            ])
        #expect(machine.leaderReaped(1, waitStatus: 0) == [.resume(10, ChildExit(termination: .exited(0), cancellation: nil))])
    }

    @Test func exitedChildNoChildExplains_isAnOrphanOnlyOnceTheLaunchesPendingThenHaveArrived() {
        var machine = launching([1])

        #expect(machine.exitedChildFound(500) == [.takeArrivals(awaiting: [1])])
        #expect(machine.isOrphan(500) == false)
        _ = machine.launchRequested(madeUpLaunch(2), processors: 0)  // started later: it cannot be its exit
        #expect(machine.isOrphan(500) == false)
        _ = machine.launchesArrived([madeUpArrival(1, pid: 100)], now: .seconds(0)) { [] }
        #expect(machine.isOrphan(500) == true)
        #expect(machine.unexplainedExit == nil)
        #expect(machine.exitedChildFound(100) == [])
    }

    @Test func unexplainedExit_isForgottenOnceAChildWithItsPidIsReaped() {
        var machine = launching([1])
        #expect(machine.isOrphan(100) == false)
        _ = machine.launchesArrived([madeUpArrival(1, pid: 100)], now: .seconds(0)) { [] }

        #expect(machine.unexplainedExit?.pid == 100)
        _ = machine.childrenExited([(1, 0)]) { [] }
        #expect(machine.unexplainedExit == nil)
    }

    /// A state machine with the launches of `tokens` handed to the launch threads, none arrived yet.
    private func launching(_ tokens: [UInt64]) -> TestMachine {
        var machine = TestMachine(start: .seconds(0))
        for token in tokens { _ = machine.launchRequested(madeUpLaunch(token), processors: 0) }
        return machine
    }
}
