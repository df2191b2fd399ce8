import StartupSupport
import Testing

@testable import StartupKit

/// The flush timer's one rule: the run's end cancels the armed timer, and any armed after it.
/// The timers here never fire; only their cancellation is read.
@Suite struct EventFlushTimerTests {
    /// A timer that only records its cancellation.
    private final class TestTimer: Sendable {
        private let cancelled = Locked(false)
        var isCancelled: Bool { cancelled.withLock { $0 } }
        var timer: RunTimer { RunTimer { [cancelled] in cancelled.withLock { $0 = true } } }
    }

    private func hourLongTimer() -> TestTimer { TestTimer() }

    @Test func theRunsEnd_cancelsTheArmedTimer() {
        let flush = EventFlushTimer()
        let timer = hourLongTimer()
        flush.arm(timer.timer)
        #expect(!timer.isCancelled)
        flush.finish()
        #expect(timer.isCancelled)
    }

    @Test func aTimerArmedAfterTheRunsEnd_isCancelledAtOnce() {
        let flush = EventFlushTimer()
        flush.finish()
        let timer = hourLongTimer()
        flush.arm(timer.timer)
        #expect(timer.isCancelled)
    }

    @Test func aLaterTimer_replacesTheEarlierOne_whichIsLeftToFinish() {
        let flush = EventFlushTimer()
        let earlier = hourLongTimer()
        let later = hourLongTimer()
        flush.arm(earlier.timer)
        flush.arm(later.timer)
        flush.finish()
        #expect(later.isCancelled)
        #expect(!earlier.isCancelled, "an earlier timer has flushed already when the next is armed")
    }
}
