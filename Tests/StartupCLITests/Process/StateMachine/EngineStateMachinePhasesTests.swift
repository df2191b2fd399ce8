import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one phase the engine's state machine keeps for each child, followed from the request for its spawn to the
/// resumption of its task, with made-up tokens, pids, times and snapshots: no process runs.
@Suite struct EngineStateMachinePhasesTests {
    /// The leader (100) and a child of it in its group (101), both running.
    private static var family: ProcessSnapshot {
        [madeUpProcess(100, parent: 1, group: 100), madeUpProcess(101, parent: 100, group: 100)]
    }
    /// What is left once the leader has exited: 101, reparented.
    private static var rest: ProcessSnapshot { [madeUpProcess(101, parent: 1, group: 100)] }

    @Test func aStoppedChildWhoseTreeOutlivesItsLeader_goesThroughEveryPhaseInOrder() {
        var machine = TestMachine(start: .seconds(0))

        _ = machine.launchRequested(madeUpLaunch(1), processors: 1)
        #expect(machine.phase(of: 1) == "launching")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.launchesArrived([madeUpArrival(1, pid: 100)], now: .seconds(0)) { [] }
        #expect(machine.phase(of: 1) == "running")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.stop([1], now: .seconds(0)) { Self.family }
        #expect(machine.phase(of: 1) == "stopping, terminate until 5.0")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.childrenExited([(1, 0)]) { Self.rest }
        #expect(machine.phase(of: 1) == "reaping, terminate until 5.0, lingers")
        #expect(machine.index == machine.indexedAgain)
        #expect(!machine.endedByItself(1))
        _ = machine.leaderReaped(1, waitStatus: SIGTERM)
        #expect(machine.phase(of: 1) == "lingering")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.watchLingeringStops(now: .seconds(1)) { [] }
        #expect(machine.phase(of: 1) == nil)
        #expect(machine.index == machine.indexedAgain)
        #expect(machine.phases.isEmpty)
    }

    @Test func aChildLeftToItsStopLine_movesFromTheLineToTermToKill_thenIsReapedWithoutLingering() {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(madeUpChild(pid: 100, waiter: 10, grace: .seconds(4), signalsWhenStopped: false), token: 1)

        _ = machine.stop([1], now: .seconds(0)) { Self.family }
        #expect(machine.phase(of: 1) == "stopping, leftToStopLine")
        #expect(machine.index == machine.indexedAgain)
        machine.stopLinesEnded([1], now: .seconds(10))
        #expect(machine.phase(of: 1) == "stopping, leftToStopLine until 14.0")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.escalateOverdueStops(now: .seconds(14)) { Self.family }
        #expect(machine.phase(of: 1) == "stopping, terminate until 18.0")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.escalateOverdueStops(now: .seconds(18)) { Self.family }
        #expect(machine.phase(of: 1) == "stopping, kill")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.childrenExited([(1, 0)]) { Self.rest }
        #expect(machine.phase(of: 1) == "reaping, kill")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.leaderReaped(1, waitStatus: SIGKILL)
        #expect(machine.phase(of: 1) == nil)
        #expect(machine.index == machine.indexedAgain)
    }

    @Test func aChildThatEndsByItself_isReapedAsEndedByItself_andIsGoneOnceReaped() {
        var machine = TestMachine(start: .seconds(0))
        machine.childStarted(madeUpChild(pid: 100, waiter: 10), token: 1)

        _ = machine.childrenExited([(1, 0)]) { [] }
        #expect(machine.phase(of: 1) == "reaping")
        #expect(machine.index == machine.indexedAgain)
        #expect(machine.endedByItself(1))
        #expect(machine.token(ofPid: 100) == nil)
        _ = machine.leaderReaped(1, waitStatus: 0)
        #expect(machine.phase(of: 1) == nil)
        #expect(machine.index == machine.indexedAgain)
    }

    @Test func aWithdrawnLaunch_isGoneOnceItsTaskIsResumed() {
        var machine = TestMachine(start: .seconds(0))
        _ = machine.launchRequested(madeUpLaunch(1), processors: 0)

        _ = machine.stop([1], now: .seconds(0)) { [] }
        #expect(machine.phase(of: 1) == "launching, stopped")
        #expect(machine.index == machine.indexedAgain)
        _ = machine.launchesWithdrawn([1], of: [1])
        #expect(machine.phase(of: 1) == nil)
        #expect(machine.index == machine.indexedAgain)
    }
}

extension EngineStateMachine where Instant == TestInstant {
    /// The phase of `token` in words, with how far its stop has gone and when its next step is due (seconds after
    /// zero); `nil` when the state machine keeps nothing of it.
    fileprivate func phase(of token: UInt64) -> String? {
        switch phases[token] {
        case nil: nil
        case .launching(let record): record.stopped ? "launching, stopped" : "launching"
        case .running: "running"
        case .stopping(_, let stop): "stopping, " + Self.words(stop)
        case .reaping(_, let stop, let lingers): "reaping" + (stop.map { ", " + Self.words($0) } ?? "") + (lingers ? ", lingers" : "")
        case .lingering: "lingering"
        }
    }

    /// The index of the phases, made again from the table: ``index`` must always equal it.
    fileprivate var indexedAgain: PhaseIndex {
        var index = PhaseIndex()
        for (token, phase) in phases { index.move(token, from: nil, to: phase) }
        return index
    }

    /// A stop's signal, and when its next step is due.
    private static func words(_ stop: Stop) -> String {
        let due = stop.deadline.map { " until \(Double($0.offset.components.seconds))" } ?? ""
        return "\(stop.signal)\(due)"
    }
}
