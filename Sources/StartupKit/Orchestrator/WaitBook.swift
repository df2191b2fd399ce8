/// The tasks waiting for commands of a run to end: which commands each waits for and how many
/// are left. A plain value, changed under the scheduler's lock; waiters are opaque tokens.
///
/// A wait's id is reserved before its waiter is added, so a timeout or a cancellation that comes
/// first is remembered and ends the wait as soon as it is added.
struct WaitBook<Waiter> {
    /// How a wait ended before it was resolved by its commands.
    enum Preemption: Sendable, Hashable {
        /// Its time was up.
        case timedOut
        /// Its task was cancelled.
        case cancelled
    }

    fileprivate enum Entry {
        /// Reserved; its waiter is not added yet.
        case reserved
        /// Timed out or cancelled before its waiter was added.
        case preempted(Preemption)
        /// Waiting for `remaining` of `awaited`; `boosted` are the commands the wait made urgent.
        case waiting(Waiter, awaited: [Int], remaining: Int, boosted: [Int])
    }

    /// Every wait not resolved yet, by id.
    private var entries: [Int: Entry] = [:]
    /// The waits each command's end concerns, by position; ids of waits already resolved are
    /// skipped when met.
    private var byCommand: [Int: [Int]] = [:]
    private var nextID = 0

    /// Whether nobody waits: then a command's end needs no look-up.
    var isEmpty: Bool { byCommand.isEmpty }

    /// A new wait's id.
    mutating func reserve() -> Int {
        defer { nextID += 1 }
        entries[nextID] = .reserved
        return nextID
    }

    /// Adds the waiter of wait `id` for the unfinished commands `unfinished` (not empty) of
    /// `awaited`. Returns how the wait already ended, if it did; it is then not added.
    mutating func add(_ waiter: Waiter, id: Int, awaiting awaited: [Int], unfinished: [Int]) -> Preemption? {
        precondition(!unfinished.isEmpty, "a wait for nothing")
        switch entries[id] {
        case .reserved:
            entries[id] = .waiting(waiter, awaited: awaited, remaining: unfinished.count, boosted: [])
            for position in unfinished { byCommand[position, default: []].append(id) }
            return nil
        case .preempted(let preemption):
            entries[id] = nil
            return preemption
        case .waiting, nil:
            preconditionFailure("a wait added twice")
        }
    }

    /// Keeps the commands that waiting wait `id` made urgent, to be handed back when it ends.
    mutating func setBoosted(_ boosted: [Int], for id: Int) {
        guard case .waiting(let waiter, let awaited, let remaining, _) = entries[id] else {
            preconditionFailure("boosting a wait that does not wait")
        }
        entries[id] = .waiting(waiter, awaited: awaited, remaining: remaining, boosted: boosted)
    }

    /// A command ended. Returns the waits it resolves, with the commands each made urgent: those
    /// it was the last for (when it succeeded), or every wait for it (when it did not).
    mutating func commandEnded(_ position: Int, succeeded: Bool) -> [(waiter: Waiter, boosted: [Int])] {
        guard let ids = byCommand.removeValue(forKey: position) else { return [] }
        var resolved: [(waiter: Waiter, boosted: [Int])] = []
        for id in ids {
            guard case .waiting(let waiter, let awaited, let remaining, let boosted) = entries[id] else { continue }
            if !succeeded || remaining == 1 {
                entries[id] = nil
                resolved.append((waiter, boosted))
            } else {
                entries[id] = .waiting(waiter, awaited: awaited, remaining: remaining - 1, boosted: boosted)
            }
        }
        return resolved
    }

    /// Forgets wait `id`, resolved before its waiter was added.
    mutating func discard(_ id: Int) {
        entries[id] = nil
    }

    /// Ends wait `id` early. Returns its waiter, the commands it awaited and those it made
    /// urgent if it was waiting; `nil` if it was resolved already, or is not added yet (it then
    /// ends when added).
    mutating func preempt(_ id: Int, as preemption: Preemption) -> (waiter: Waiter, awaited: [Int], boosted: [Int])? {
        switch entries[id] {
        case .reserved:
            entries[id] = .preempted(preemption)
            return nil
        case .waiting(let waiter, let awaited, _, let boosted):
            entries[id] = nil
            for position in awaited {
                byCommand[position]?.removeAll { $0 == id }
                if byCommand[position]?.isEmpty == true { byCommand[position] = nil }
            }
            return (waiter, awaited, boosted)
        case .preempted, nil:
            return nil
        }
    }
}

extension WaitBook: Sendable where Waiter: Sendable {}
extension WaitBook.Entry: Sendable where Waiter: Sendable {}
