import Foundation
import StartupKit
import StartupSupport
import Testing

/// What a service runner reported, in order, and a way to wait for a report without sleeping.
final class ServiceEvents: Sendable {
    enum Event: Equatable, Sendable {
        case line(String)
        case ready
    }

    private struct Waiter {
        let condition: @Sendable ([Event]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// Guards the events and the waiters.
    private let state = Locked<(events: [Event], waiters: [Waiter])>(([], []))

    var events: [Event] { state.withLock { $0.events } }
    var lines: [String] { events.compactMap { if case .line(let line) = $0 { line } else { nil } } }

    func record(_ event: Event) {
        let due = state.withLock { state in
            state.events.append(event)
            let events = state.events
            let due = state.waiters.filter { $0.condition(events) }
            state.waiters.removeAll { $0.condition(events) }
            return due
        }
        for waiter in due { waiter.continuation.resume(returning: true) }
    }

    /// Waits until `condition` holds for the events; `false` only after `failsafe`, which turns a hang into a
    /// failure and is never the pass condition.
    func wait(until condition: @escaping @Sendable ([Event]) -> Bool, failsafe: Duration = .seconds(300)) async -> Bool {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if condition(state.events) { return true }
                state.waiters.append(Waiter(condition: condition, continuation: continuation))
                return false
            }
            if now { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(failsafe.components.seconds))) { [self] in
                let late = state.withLock { state in
                    let late = state.waiters.filter { !$0.condition(state.events) }
                    state.waiters.removeAll { !$0.condition(state.events) }
                    return late
                }
                for waiter in late { waiter.continuation.resume(returning: false) }
            }
        }
    }

    /// Waits for a line that satisfies `matches`.
    func waitForLine(_ matches: @escaping @Sendable (String) -> Bool) async -> Bool {
        await wait(until: { $0.contains { if case .line(let line) = $0 { matches(line) } else { false } } })
    }

    /// The number after `prefix` on the first line that starts with it (`pid 123`).
    func number(after prefix: String) -> Int32? {
        lines.first { $0.hasPrefix(prefix) }.flatMap { Int32($0.dropFirst(prefix.count)) }
    }
}
