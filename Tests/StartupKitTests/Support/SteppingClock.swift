@testable import StartupKit

/// A clock whose time moves only when a test calls ``advance(by:)``, so recorded offsets are
/// exact. It does not sleep: a plan run on it must have no timeouts or retry delays.
struct SteppingClock: Clock {
    struct Instant: InstantProtocol {
        let offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let time = Locked(Duration.zero)

    var now: Instant { Instant(offset: time.withLock { $0 }) }
    var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves the time forward.
    func advance(by duration: Duration) {
        time.withLock { $0 += duration }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        preconditionFailure("SteppingClock does not sleep")
    }
}
