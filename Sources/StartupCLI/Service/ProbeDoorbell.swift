import Dispatch
import StartupKit

/// What a polled probe waits on between attempts: the end of a delay, or a ring (the service wrote output, so
/// it may just have started listening), whichever comes first. A ring while nobody waits is kept for the next
/// wait, so output during an attempt is never missed.
final class ProbeDoorbell: Sendable {
    private enum State {
        case idle
        case rung
        case waiting(id: UInt64, waiter: CheckedContinuation<Void, Never>)
    }

    /// Guards the state and the last wait's id (tells a stale timer from the current wait's).
    private let state = Locked<(state: State, lastID: UInt64)>((.idle, 0))

    /// Ends the current wait, or the next one at once.
    func ring() {
        release(where: { _ in true }, orRing: true)
    }

    /// Waits until `delay` has passed, the bell rings, or the task is cancelled.
    func wait(upTo delay: Duration) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let id: UInt64? = state.withLock { box in
                    if case .rung = box.state {
                        box.state = .idle
                        return nil
                    }
                    if Task.isCancelled { return nil }
                    box.lastID += 1
                    box.state = .waiting(id: box.lastID, waiter: waiter)
                    return box.lastID
                }
                guard let id else { return waiter.resume() }
                DispatchQueue.global().asyncAfter(deadline: .after(delay)) { [self] in
                    release(where: { $0 == id }, orRing: false)
                }
            }
        } onCancel: {
            release(where: { _ in true }, orRing: false)
        }
    }

    /// Resumes the waiter if `matches` its id; else, with `orRing`, keeps a ring for the next wait.
    private func release(where matches: (UInt64) -> Bool, orRing: Bool) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { box in
            if case .waiting(let id, let waiter) = box.state, matches(id) {
                box.state = .idle
                return waiter
            }
            if orRing { box.state = .rung }
            return nil
        }
        waiter?.resume()
    }
}
