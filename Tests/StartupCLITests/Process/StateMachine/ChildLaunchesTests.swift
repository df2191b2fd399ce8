import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine's launch decisions (who makes a spawn, and what becomes of a launch that arrives, fails, is stopped or
/// exits before it is taken in), driven input by input with made-up tokens and pids: no process runs.
@Suite struct ChildLaunchesTests {
    /// The leader of the child made for token 1.
    private static var leader: ProcessSnapshot { [madeUpProcess(100, parent: 1, group: 100)] }

    @Test func launchRequested_isSpawnedByTheLoopWhileNoMoreChildrenThanProcessors_elseSubmitted() {
        var stops = TestStops(start: .seconds(0))
        stops.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)

        #expect(stops.launchRequested(madeUpLaunch(2), processors: 3) == [.spawn(madeUpLaunch(2))])
        #expect(stops.launchRequested(madeUpLaunch(3), processors: 3) == [.spawn(madeUpLaunch(3))])
        #expect(stops.launchRequested(madeUpLaunch(4), processors: 3) == [.submit(madeUpLaunch(4))])
        #expect(stops.launching.keys.sorted() == [2, 3, 4])
    }

    @Test func launchArrived_takesTheChildIn_andWatchesAnExitThatWakesNothing() {
        var stops = launching([1, 2])

        #expect(
            stops.launchesArrived(
                [madeUpArrival(1, pid: 100, pidfd: 7), madeUpArrival(2, pid: 200, exitWakesLoop: false)],
                now: .seconds(0)
            ) { [] } == [.announceSpawn(madeUpLaunch(1), pid: 100), .announceSpawn(madeUpLaunch(2), pid: 200), .watchExit(2, pid: 200)])
        #expect(stops.token(ofPid: 100) == 1)
        #expect(stops.token(ofPid: 200) == 2)
        #expect(stops.children[1]?.pidfd == 7)
        #expect(!stops.launchesPending)
    }

    @Test func launchThatFailed_resumesItsTaskWithTheFailure() {
        var stops = launching([1])
        let failure = SpawnFailure(errno: ENOENT, message: "cannot run \"nope\"")

        #expect(
            stops.launchesArrived([madeUpArrival(1, failure: failure)], now: .seconds(0)) { [] } == [
                .resume(10, ChildExit(termination: .failedToStart(errno: ENOENT, message: "cannot run \"nope\""), cancellation: nil))
            ])
        #expect(stops.children.isEmpty)
        #expect(!stops.launchesPending)
    }

    @Test func launchNeverRequested_hasItsPidfdDropped() {
        var stops = TestStops(start: .seconds(0))

        #expect(stops.launchesArrived([madeUpArrival(9, pid: 900, pidfd: 7)], now: .seconds(0)) { [] } == [.dropPidfd(7)])
        #expect(stops.children.isEmpty)
    }

    @Test func stop_whileStillLaunching_isAppliedWhenTheChildArrives() {
        var stops = launching([1])

        #expect(stops.stop([1], now: .seconds(0)) { Self.leader } == [.withdraw([1])])
        #expect(stops.launchesWithdrawn([], of: [1]) == [.takeArrivals(awaiting: [1])])
        #expect(
            stops.launchesArrived([madeUpArrival(1, pid: 100)], now: .seconds(1)) { Self.leader } == [
                .announceSpawn(madeUpLaunch(1), pid: 100), .signalGroup(-100, SIGTERM),
                .signalTree(NumberTree(leader: 100), SIGTERM, outsideGroup: 100),
            ])
        #expect(stops.nextDeadline == .seconds(6))
    }

    @Test func stop_ofLaunchesNotBegun_resumesTheirTasks_andAwaitsTheOthers() {
        var stops = launching([1, 2])
        stops.childStarted(madeUpChild(pid: 300, waiter: 30), token: 3)

        #expect(
            stops.stop([1, 2, 3], now: .seconds(0)) { [madeUpProcess(300, parent: 1, group: 300)] } == [
                .withdraw([1, 2]), .signalGroup(-300, SIGTERM), .signalTree(NumberTree(leader: 300), SIGTERM, outsideGroup: 300),
            ])
        #expect(
            stops.launchesWithdrawn([1], of: [1, 2]) == [.resume(10, MadeUpLaunch.withdrawnExit), .takeArrivals(awaiting: [2])])
        #expect(stops.launching.keys.sorted() == [2])
    }

    @Test func exit_seenBeforeTheLaunchArrived_isAppliedWhenItArrives() {
        var stops = launching([1])

        #expect(stops.childrenExited([(1, 0)]) { [] } == [.takeArrivals(awaiting: [1])])
        #expect(
            stops.launchesArrived([madeUpArrival(1, pid: 100, pidfd: 7)], now: .seconds(0)) { [] } == [
                .announceSpawn(madeUpLaunch(1), pid: 100), .closeDescriptor(7), .closeTree(NumberTree(leader: 100)), .reap(1, pid: 100),
            ])
        #expect(stops.leaderReaped(1, waitStatus: 0) == [.resume(10, ChildExit(termination: .exited(0), cancellation: nil))])
    }

    @Test func exitedChildNoChildExplains_isAnOrphanOnlyOnceTheLaunchesPendingThenHaveArrived() {
        var stops = launching([1])

        #expect(stops.exitedChildFound(500) == [.takeArrivals(awaiting: [1])])
        #expect(stops.isOrphan(500) == false)
        _ = stops.launchRequested(madeUpLaunch(2), processors: 0)  // started later: it cannot be its exit
        #expect(stops.isOrphan(500) == false)
        _ = stops.launchesArrived([madeUpArrival(1, pid: 100)], now: .seconds(0)) { [] }
        #expect(stops.isOrphan(500) == true)
        #expect(stops.unexplainedExit == nil)
        #expect(stops.exitedChildFound(100) == [])
    }

    @Test func unexplainedExit_isForgottenOnceAChildWithItsPidIsReaped() {
        var stops = launching([1])
        #expect(stops.isOrphan(100) == false)
        _ = stops.launchesArrived([madeUpArrival(1, pid: 100)], now: .seconds(0)) { [] }

        #expect(stops.unexplainedExit?.pid == 100)
        _ = stops.childrenExited([(1, 0)]) { [] }
        #expect(stops.unexplainedExit == nil)
    }

    /// A core with the launches of `tokens` handed to the launch threads, none arrived yet.
    private func launching(_ tokens: [UInt64]) -> TestStops {
        var stops = TestStops(start: .seconds(0))
        for token in tokens { _ = stops.launchRequested(madeUpLaunch(token), processors: 0) }
        return stops
    }
}
