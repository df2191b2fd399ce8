import Testing

@testable import StartupKit

/// The flush timer's one rule: the run's end cancels the armed timer, and any armed after it.
/// The timers here would sleep for an hour; nothing waits for them, only their cancellation is read.
@Suite struct EventFlushTimerTests {
    private func hourLongTimer() -> Task<Void, Never> {
        Task { try? await Task.sleep(for: .seconds(3_600)) }
    }

    @Test func theRunsEnd_cancelsTheArmedTimer() {
        let flush = EventFlushTimer()
        let timer = hourLongTimer()
        flush.arm(timer)
        #expect(!timer.isCancelled)
        flush.finish()
        #expect(timer.isCancelled)
    }

    @Test func aTimerArmedAfterTheRunsEnd_isCancelledAtOnce() {
        let flush = EventFlushTimer()
        flush.finish()
        let timer = hourLongTimer()
        flush.arm(timer)
        #expect(timer.isCancelled)
    }

    @Test func aLaterTimer_replacesTheEarlierOne_whichIsLeftToFinish() {
        let flush = EventFlushTimer()
        let earlier = hourLongTimer()
        let later = hourLongTimer()
        flush.arm(earlier)
        flush.arm(later)
        flush.finish()
        #expect(later.isCancelled)
        #expect(!earlier.isCancelled, "an earlier timer has flushed already when the next is armed")
        earlier.cancel()
    }
}
