import Dispatch
import StartupKit
import StartupSupport

/// What a polled probe waits on between attempts: the end of a delay, or a ring (the service wrote output, so
/// it may just have started listening), whichever comes first. A ring while nobody waits is kept for the next
/// wait, so output during an attempt is never missed. A wait may refuse rings: a probe does so after an attempt
/// a ring started, so a service that logs every request (each probe attempt) cannot drive it into a busy loop.
final class ProbeDoorbell: Sendable {
    private enum State {
        case idle
        case rung
        case waiting(id: UInt64, ringable: Bool, waiter: CheckedContinuation<Bool, Never>)
    }

    /// Guards the state and the last wait's id (tells a stale timer from the current wait's).
    private let state = Locked<(state: State, lastID: UInt64)>((.idle, 0))

    /// Ends the current wait if it takes rings, else the next one that does, at once.
    func ring() {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { box in
            if case .waiting(_, true, let waiter) = box.state {
                box.state = .idle
                return waiter
            }
            if case .idle = box.state { box.state = .rung }
            return nil
        }
        waiter?.resume(returning: true)
    }

    /// Waits until `delay` has passed, the bell rings (if `ringable`), or the task is cancelled.
    ///
    /// - Returns: `true` when a ring ended the wait.
    @discardableResult
    func wait(upTo delay: Duration, ringable: Bool = true) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
                let id: UInt64? = state.withLock { box in
                    if ringable, case .rung = box.state {
                        box.state = .idle
                        return nil
                    }
                    if Task.isCancelled { return nil }
                    box.lastID += 1
                    box.state = .waiting(id: box.lastID, ringable: ringable, waiter: waiter)
                    return box.lastID
                }
                guard let id else { return waiter.resume(returning: !Task.isCancelled) }
                DispatchQueue.global().asyncAfter(deadline: .after(delay)) { [self] in
                    release(where: { $0 == id })
                }
            }
        } onCancel: {
            release(where: { _ in true })
        }
    }

    /// Ends the wait whose id `matches`, as not rung.
    private func release(where matches: (UInt64) -> Bool) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { box in
            guard case .waiting(let id, _, let waiter) = box.state, matches(id) else { return nil }
            box.state = .idle
            return waiter
        }
        waiter?.resume(returning: false)
    }
}
