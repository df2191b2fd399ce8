import Testing

@testable import StartupCLI

/// The debounce and coalescing of one watched command's reloads, driven input by input with instants of the test's
/// own: no clock, no sleep.
@Suite struct ReloadQueueTests {
    /// An instant: a duration since the test's start.
    struct Tick: InstantProtocol, CustomStringConvertible {
        var offset: Duration
        func advanced(by duration: Duration) -> Tick { Tick(offset: offset + duration) }
        func duration(to other: Tick) -> Duration { other.offset - offset }
        static func < (left: Tick, right: Tick) -> Bool { left.offset < right.offset }
        static func ms(_ milliseconds: Int) -> Tick { Tick(offset: .milliseconds(milliseconds)) }
        var description: String { "\(offset)" }
    }

    private func batch(_ paths: String...) -> ReloadBatch { ReloadBatch(paths: paths) }

    @Test func aChange_armsTheDebounce_andTheTimerStartsAReloadWithTheBatch() {
        var queue = ReloadQueue<Tick>(debounce: .milliseconds(200))
        #expect(queue.change(batch("src/app.py"), at: .ms(0)) == .armTimer(.ms(200)))
        #expect(queue.change(batch("src/db.py", "src/app.py"), at: .ms(50)) == .none)
        #expect(queue.timerFired(at: .ms(200)) == .armTimer(.ms(250)), "the last change pushed the deadline")
        #expect(queue.timerFired(at: .ms(250)) == .startReload(batch("src/app.py", "src/db.py")))
        #expect(queue.isReloading)
        #expect(queue.reloadEnded(at: .ms(900)) == .none)
        #expect(!queue.isReloading)
        #expect(queue.timerFired(at: .ms(1_000)) == .none, "a timer with nothing waiting does nothing")
    }

    @Test func changesDuringAReload_makeExactlyOneMoreAfterIt() {
        var queue = ReloadQueue<Tick>(debounce: .milliseconds(200))
        _ = queue.change(batch("a"), at: .ms(0))
        #expect(queue.timerFired(at: .ms(200)) == .startReload(batch("a")))
        for (index, time) in stride(from: 300, to: 1_000, by: 70).enumerated() {
            #expect(queue.change(batch("b\(index % 3)"), at: .ms(time)) == .none)
        }
        #expect(queue.reloadEnded(at: .ms(2_000)) == .startReload(batch("b0", "b1", "b2")), "their debounce has passed: at once")
        #expect(queue.reloadEnded(at: .ms(2_500)) == .none)
        #expect(queue.reloadEnded(at: .ms(2_600)) == .none, "an end without a reload changes nothing")
    }

    @Test func changesJustBeforeAReloadEnds_waitForTheirDebounce() {
        var queue = ReloadQueue<Tick>(debounce: .milliseconds(200))
        _ = queue.change(batch("a"), at: .ms(0))
        _ = queue.timerFired(at: .ms(200))
        _ = queue.change(batch("b"), at: .ms(450))
        #expect(queue.reloadEnded(at: .ms(500)) == .armTimer(.ms(650)))
        #expect(queue.change(batch("c"), at: .ms(600)) == .none)
        #expect(queue.timerFired(at: .ms(650)) == .armTimer(.ms(800)))
        #expect(queue.timerFired(at: .ms(800)) == .startReload(batch("b", "c")))
    }

    @Test func filesWrittenWithoutAPause_stillReload_afterTheLongestWait() {
        var queue = ReloadQueue<Tick>(debounce: .milliseconds(100))
        #expect(queue.change(batch("log"), at: .ms(0)) == .armTimer(.ms(100)))
        var action = ReloadQueue<Tick>.Action.none
        var time = 50
        while time <= 5_000, case .none = action {
            _ = queue.change(batch("log"), at: .ms(time))
            if time % 100 == 0 { action = queue.timerFired(at: .ms(time)) }
            if case .armTimer = action { action = .none }
            time += 50
        }
        #expect(action == .startReload(batch("log")))
        #expect(time - 50 == 1_000, "10 × the debounce after the first change")
    }

    @Test func aZeroDebounce_reloadsAtTheFirstTimer() {
        var queue = ReloadQueue<Tick>(debounce: .zero)
        #expect(queue.change(batch("a"), at: .ms(10)) == .armTimer(.ms(10)))
        #expect(queue.timerFired(at: .ms(10)) == .startReload(batch("a")))
    }

    /// Twenty changes in half a second, with the timer fired when armed and each reload taking `reload`: at most two
    /// reloads, and every change in one of them.
    @Test(arguments: [0, 10, 100, 250, 400, 1_000, 5_000])
    func twentyChangesInHalfASecond_giveAtMostTwoReloads(reload milliseconds: Int) {
        var queue = ReloadQueue<Tick>(debounce: .milliseconds(200))
        var changes = (0..<20).map { (Tick.ms($0 * 25), "src/file\($0).py") }
        var timer: Tick?
        var reloadEnd: Tick?
        var reloads: [ReloadBatch] = []
        func perform(_ action: ReloadQueue<Tick>.Action, at now: Tick) {
            switch action {
            case .none: break
            case .armTimer(let deadline): timer = deadline
            case .startReload(let batch):
                reloads.append(batch)
                reloadEnd = now.advanced(by: .milliseconds(milliseconds))
            }
        }
        while true {
            let next = [changes.first?.0, timer, reloadEnd].compactMap { $0 }.min()
            guard let now = next else { break }
            if let change = changes.first, change.0 == now {
                changes.removeFirst()
                perform(queue.change(ReloadBatch(paths: [change.1]), at: now), at: now)
            } else if timer == now {
                timer = nil
                perform(queue.timerFired(at: now), at: now)
            } else {
                reloadEnd = nil
                perform(queue.reloadEnded(at: now), at: now)
            }
        }
        #expect(reloads.count >= 1 && reloads.count <= 2, "\(reloads.count) reloads")
        #expect(Set(reloads.flatMap(\.paths)).count == 20, "every change is in a reload")
        #expect(!queue.isReloading)
    }
}
