import Dispatch
import StartupKitTesting
import StartupSupport
import Testing

@testable import StartupKit

/// Observers run off the scheduler's path: a blocked observer holds up the events, never the
/// commands or their recorded times.
@Suite struct ObserverTests {
    /// Blocks on the first event until released; records every event it is given.
    final class BlockingObserver: StartupObserver {
        let release = DispatchSemaphore(value: 0)
        let events = EventCollector()
        /// Whether the failsafe ran out: the commands never finished while the observer was blocked.
        let gaveUp = Locked(false)
        private let blocked = Locked(false)

        func observe(_ event: StartupEvent) {
            let first = blocked.withLock { blocked in
                defer { blocked = true }
                return !blocked
            }
            // The failsafe only turns a hang (observers on the scheduler's path) into a failure.
            if first, release.wait(timeout: .now() + .seconds(60)) == .timedOut {
                gaveUp.withLock { $0 = true }
            }
            events.observe(event)
        }
    }

    @Test func run_whenAnObserverBlocks_commandsRunOnAndTheirTimesDoNotMove() async throws {
        let clock = ManualClock()
        let observer = BlockingObserver()
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in clock.advance(by: .milliseconds(10)) }
        builder.add("b", dependsOn: ["a"]) { _ in clock.advance(by: .milliseconds(200)) }
        builder.add("c", dependsOn: ["b"]) { _ in
            clock.advance(by: .milliseconds(10))
            observer.release.signal()  // every command has run while the observer was blocked
        }
        let report = await StartupOrchestrator(try builder.build(), options: .init(observers: [observer]), clock: clock).run()

        #expect(observer.gaveUp.withLock { $0 } == false, "commands waited for a blocked observer")
        #expect(report.status == .succeeded)
        #expect(report.commands.map(\.startOffset) == [.zero, .milliseconds(10), .milliseconds(210)])
        #expect(report.commands.map(\.duration) == [.milliseconds(10), .milliseconds(200), .milliseconds(10)])
        // Every event still arrives, in order, the report last.
        #expect(
            observer.events.summaries == [
                "started a #1", "finished a succeeded", "started b #1", "finished b succeeded", "started c #1", "finished c succeeded",
            ])
        guard case .runFinished? = observer.events.all.last else {
            Issue.record("runFinished missing or not last")
            return
        }
    }

    /// With a batch window, held-back events still all arrive, in order, and the run's end does
    /// not wait for the window: the clock never moves here, so only the end can release them.
    @Test(.timeLimit(.minutes(5))) func run_withABatchWindow_deliversEveryEventInOrder_andEndsWithoutWaitingForIt() async throws {
        let events = EventCollector()
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in }
        builder.add("c", dependsOn: ["b"]) { _ in }
        let options = StartupOrchestrator.Options(observers: [events], eventBatchWindow: .seconds(3_600))
        let report = await StartupOrchestrator(try builder.build(), options: options, clock: ManualClock()).run()

        #expect(report.status == .succeeded)
        #expect(
            events.summaries == [
                "started a #1", "finished a succeeded", "started b #1", "finished b succeeded", "started c #1", "finished c succeeded",
            ])
        guard case .runFinished? = events.all.last else {
            Issue.record("runFinished missing or not last")
            return
        }
    }

    /// Records the batches it is handed, and nothing through `observe(_:)`.
    final class BatchCollector: StartupObserver {
        private let batches = Locked<[[StartupEvent]]>([])

        func observe(_ event: StartupEvent) {
            batches.withLock { $0.append([event]) }
        }

        func observe(contentsOf events: [StartupEvent]) {
            batches.withLock { $0.append(events) }
        }

        var all: [[StartupEvent]] { batches.withLock { $0 } }
    }

    /// Events held back by a window reach an observer that takes batches in one call, each event
    /// once and in order; an observer that takes them one at a time sees the same events.
    @Test func run_withABatchWindow_handsHeldEventsOverTogether() async throws {
        let batches = BatchCollector()
        let events = EventCollector()
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in }
        builder.add("c", dependsOn: ["a"]) { _ in }
        let options = StartupOrchestrator.Options(observers: [batches, events], eventBatchWindow: .seconds(3_600))
        let report = await StartupOrchestrator(try builder.build(), options: options, clock: ManualClock()).run()

        #expect(report.status == .succeeded)
        let flattened = batches.all.flatMap { $0 }
        #expect(flattened.count == events.all.count)
        #expect(zip(flattened, events.all).allSatisfy { "\($0)" == "\($1)" })
        #expect(batches.all.contains { $0.count > 1 })
        guard case .runFinished? = flattened.last else {
            Issue.record("runFinished missing or not last")
            return
        }
    }

    /// An absurd window is taken as the longest one: its flush timer sleeps on a real clock without
    /// trapping, and the run still ends at once with every event.
    @Test(.timeLimit(.minutes(5))) func run_withAnAbsurdBatchWindow_takesTheLongestOne_andEnds() async throws {
        let options = StartupOrchestrator.Options(observers: [], eventBatchWindow: .seconds(Int64.max))
        #expect(options.eventBatchWindow == StartupOrchestrator.Options.longestEventBatchWindow)
        var setLater = StartupOrchestrator.Options()
        setLater.eventBatchWindow = .seconds(Int64.max)
        #expect(setLater.eventBatchWindow == StartupOrchestrator.Options.longestEventBatchWindow)
        setLater.eventBatchWindow = .milliseconds(20)
        #expect(setLater.eventBatchWindow == .milliseconds(20))
        let events = EventCollector()
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in }
        setLater.observers = [events]
        setLater.eventBatchWindow = .seconds(Int64.max)
        let report = await StartupOrchestrator(try builder.build(), options: setLater).run()
        #expect(report.status == .succeeded)
        #expect(events.summaries == ["started a #1", "finished a succeeded", "started b #1", "finished b succeeded"])
    }
}
