/// What a move by hand on a service took.
public struct ServiceMoveTiming: Sendable, Hashable {
    /// From the request until the incarnation that ran had ended (zero when none ran).
    public let stopped: Duration
    /// From the new incarnation's start until it was ready (zero for a stop).
    public let ready: Duration
}

extension StartupRun {
    /// Restarts the service `id` by hand: the incarnation that runs is stopped as the shutdown
    /// would stop it (its task cancelled, after which it must return), a new one is started, and
    /// the call returns once that one is ready, with what each part took. Its dependents keep
    /// running, as after a restart its ``RestartPolicy`` allows, and nothing counts against that
    /// policy. A service still waiting for its dependencies, or starting (a restart under way),
    /// is waited for instead; one stopped by hand is started. The call waits for the service's body to
    /// return from its cancellation: unlike the shutdown, a move by hand has no stop timeout, and
    /// cancelling the calling task does not end the wait.
    ///
    /// ```swift
    /// let took = try await run.restartService("api")
    /// print("api ready again after \(took.ready)")
    /// ```
    ///
    /// - Throws: ``ServiceControlError``: the id is unknown or not a service's, it never became
    ///   ready, its new incarnation was not ready (it then stays stopped until started again), or
    ///   the run is shutting down.
    @discardableResult
    public func restartService(_ id: CommandID) async throws(ServiceControlError) -> ServiceMoveTiming {
        try await move(id, firstStartIsEnough: true) { await $0.restartByHand() }
    }

    /// Stops the service `id` by hand, as the shutdown would, and returns once it has stopped.
    /// It stays stopped (its ``RestartPolicy`` does not apply) until ``startService(_:)``, and
    /// the run goes on: its dependents keep running, and at shutdown it counts as stopped.
    ///
    /// - Throws: ``ServiceControlError``, as ``restartService(_:)``.
    @discardableResult
    public func stopService(_ id: CommandID) async throws(ServiceControlError) -> ServiceMoveTiming {
        try await move(id, firstStartIsEnough: false) { await $0.stopByHand() }
    }

    /// Starts again the service `id` stopped by hand and returns once it is ready; one that
    /// serves is left as it is, and one that was not started yet (on demand, or waiting for its
    /// dependencies) is started and waited for.
    ///
    /// - Throws: ``ServiceControlError``, as ``restartService(_:)``.
    @discardableResult
    public func startService(_ id: CommandID) async throws(ServiceControlError) -> ServiceMoveTiming {
        try await move(id, firstStartIsEnough: true) { await $0.startByHand() }
    }

    /// Finds the service's supervisor, waiting until it is first ready, and carries out `move`,
    /// unless `firstStartIsEnough` and the first start was waited for.
    private func move(
        _ id: CommandID, firstStartIsEnough: Bool, _ move: (ServiceSupervisor) async -> ServiceSupervisor.HandOutcome
    ) async throws(ServiceControlError) -> ServiceMoveTiming {
        guard let position = scheduler.plan.storage.index[id] else {
            throw ServiceControlError(.unknownCommand, service: id, suggestion: suggestion(for: id))
        }
        guard scheduler.plan.storage.commands[position].serve != nil else { throw ServiceControlError(.notAService, service: id) }
        let asked = scheduler.clock.elapsed()
        let supervisor: ServiceSupervisor
        if let ready = scheduler.supervisor(at: position) {
            supervisor = ready
        } else {
            // Not ready yet: its first start is waited for, not doubled.
            switch await scheduler.wait(for: [position], timeout: nil) {
            case .succeeded:
                break
            case .didNotSucceed(_, let status):
                let why = StartupWaitError(awaited: [id], reason: .commandDidNotSucceed(id, status))
                throw ServiceControlError(.neverReady, service: id, underlying: why)
            case .timedOut, .cancelled:
                throw ServiceControlError(.notRunning, service: id)
            }
            guard let ready = scheduler.supervisor(at: position) else { throw ServiceControlError(.notRunning, service: id) }
            if firstStartIsEnough { return ServiceMoveTiming(stopped: .zero, ready: scheduler.clock.elapsed() - asked) }
            supervisor = ready
        }
        switch await move(supervisor) {
        case .done(let stopped, let ready): return ServiceMoveTiming(stopped: stopped, ready: ready)
        case .notReady(let error): throw ServiceControlError(.notReadyAgain, service: id, underlying: error)
        case .stoppedByHand: throw ServiceControlError(.stoppedByHand, service: id)
        case .over: throw ServiceControlError(.notRunning, service: id)
        }
    }
}
