/// The modules a shutdown stops, sorted out once from the start-up's report: those whose commands
/// succeeded (in topological order, each with its stop timeout) and those that never started.
package struct ShutdownStops: Sendable {
    /// A module that is due to stop.
    package struct Stop: Sendable {
        package let module: any StoppableModule
        package let timeout: Duration
    }

    /// The stop timeout of a module that sets none, when the caller gives none either.
    package static let defaultStopTimeout: Duration = .seconds(10)

    /// Positions of the modules due to stop (attached to commands that succeeded), in
    /// topological order.
    package let active: [Int]
    /// The modules due to stop and their stop timeouts, by position.
    package let stops: [Int: Stop]
    /// Commands with an attached module that did not succeed at start-up, in declaration order.
    package let inactive: [CommandID]

    /// Sorts out the modules of a plan whose start-up ended as `report` says.
    ///
    /// - Precondition: Every key of `modules` is a command of `plan`, `report` is a report of
    ///   `plan`, and every module's stop timeout is positive.
    /// - Complexity: O(commands + *m* log *m*) for *m* modules.
    package init(
        plan: StartupPlan, report: StartupReport, modules: [CommandID: any StoppableModule], defaultStopTimeout: Duration
    ) {
        var active: [Int] = []
        var stops: [Int: Stop] = [:]
        var inactive: [CommandID] = []
        for position in modules.keys.map({ plan.position(of: $0) }).sorted() {
            let id = plan.storage.commands[position].id
            let module = modules[id]!
            guard report.commands[position].status.isSuccess else {
                inactive.append(id)
                continue
            }
            let timeout = module.stopTimeout ?? defaultStopTimeout
            precondition(timeout > .zero, "the stop timeout of the module attached to \"\(id)\" must be positive")
            active.append(position)
            stops[position] = Stop(module: module, timeout: timeout)
        }
        let ranks = plan.topologicalRanks()
        self.active = active.sorted { ranks[$0] < ranks[$1] }
        self.stops = stops
        self.inactive = inactive
    }

    /// Stops every active module, each only after every active module that depends on it has
    /// stopped (directly or through commands with no module), independent ones concurrently,
    /// each under its timeout, and reports how each stop went.
    ///
    /// Cancelling the calling task cancels the stops in flight and begins no more; the report
    /// then has status `.cancelled`.
    ///
    /// - Parameters:
    ///   - plan: The plan whose graph orders the stops.
    ///   - clock: Measures the offsets and times the stop timeouts.
    ///   - start: When the shutdown began, if before this call; now by default.
    ///   - started: Told of each stop that begins (the module, its offset).
    ///   - finished: Told of each stop that ends.
    ///   - isolation: The caller's actor, on which `started` and `finished` are called.
    /// - Complexity: O(commands + edges) scheduling, plus the stops' own work.
    package func stopAll(
        plan: StartupPlan, clock: StartedClock, since start: Duration? = nil,
        started: (CommandID, Duration) -> Void = { _, _ in },
        finished: (ModuleCallReport) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation
    ) async -> ShutdownReport {
        let start = start ?? clock.elapsed()
        let stops = stops
        let modules = await ModuleCallWalk(plan: plan, clock: clock).callAll(
            active, reversed: true, concurrently: true, started: started, finished: finished, isolation: isolation
        ) { position in
            let stop = stops[position]!
            return await StopRunner.stop(stop.module, timeout: stop.timeout, clock: clock)
        }
        let status: ShutdownReport.Status
        if modules.contains(where: { if case .cancelled = $0.status { true } else { false } }) {
            status = .cancelled
        } else {
            status = modules.allSatisfy(\.status.isSuccess) ? .succeeded : .failed
        }
        return ShutdownReport(
            status: status, modules: modules, notStarted: inactive, startOffset: start, endOffset: clock.elapsed())
    }
}
