import StartupSupport

/// The one shutdown of a run: the first caller performs it, later and concurrent callers get its
/// report.
final class ShutdownOnce: Sendable {
    private enum State: Sendable {
        case notBegun
        case inProgress([CheckedContinuation<ShutdownReport, Never>])
        case done(ShutdownReport)
    }

    /// Guards whether the shutdown began, who waits for it, and its report.
    private let state = Locked(State.notBegun)

    /// Performs `shutdown` if no one has yet, else waits for the report of the one that did.
    func perform(_ shutdown: () async -> ShutdownReport) async -> ShutdownReport {
        let isFirst = state.withLock { state in
            guard case .notBegun = state else { return false }
            state = .inProgress([])
            return true
        }
        guard isFirst else {
            return await withCheckedContinuation { continuation in
                let done: ShutdownReport? = state.withLock { state in
                    switch state {
                    case .inProgress(var waiters):
                        waiters.append(continuation)
                        state = .inProgress(waiters)
                        return nil
                    case .done(let report):
                        return report
                    case .notBegun:
                        preconditionFailure("a shutdown waited for before it began")
                    }
                }
                if let done { continuation.resume(returning: done) }
            }
        }
        let report = await shutdown()
        let waiters = state.withLock { state in
            defer { state = .done(report) }
            if case .inProgress(let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume(returning: report) }
        return report
    }
}
