#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for a non-blocking socket to become readable or writable without blocking a thread: `poll` with a zero
/// timeout, and between two looks a task sleep that starts at 100 µs and doubles up to 1 ms, so a loopback peer
/// that answers at once costs no more than a fraction of a millisecond. Cancelling the task ends the wait.
enum SocketWait {
    /// What to wait for.
    enum Readiness {
        case readable
        case writable
    }

    /// The first pause between two looks.
    static let firstPause = Duration.microseconds(100)
    /// The longest pause between two looks.
    static let longestPause = Duration.milliseconds(1)

    /// `true` when `descriptor` became `readiness` (or has an error or hang-up to read) within `limit`; `false` on
    /// time-out or cancellation.
    static func wait(_ descriptor: Int32, until readiness: Readiness, limit: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        let events = Int16(readiness == .readable ? POLLIN : POLLOUT)
        var pause = firstPause
        while true {
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let found = poll(&entry, 1, 0)
            if found > 0 { return true }
            if found < 0 && errno != EINTR { return false }
            let now = clock.now
            guard now < deadline else { return false }
            do {
                try await Task.sleep(until: min(now + pause, deadline), clock: clock)
            } catch {
                return false
            }
            pause = min(pause * 2, longestPause)
        }
    }
}
