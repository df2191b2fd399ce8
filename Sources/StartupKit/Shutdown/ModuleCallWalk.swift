/// Calls the modules attached to a plan's commands in the graph's order: each after the
/// participants it waits for (its dependencies, or its dependents when reversed), one at a time
/// or each as soon as it may; and reports each call with its timing. The run's shutdown and the
/// `StartupLifecycle` library's deliveries and shutdown walk the graph with it.
package struct ModuleCallWalk {
    private let plan: StartupPlan
    private let clock: StartedClock

    /// A walk over `plan`'s graph whose offsets `clock` measures.
    package init(plan: StartupPlan, clock: StartedClock) {
        self.plan = plan
        self.clock = clock
    }

    /// Calls `call` for every participant, each after the participants it waits for, one at a
    /// time or, `concurrently`, each as soon as it may; tells `started` and `finished` of each
    /// call, and reports each call in the order the calls began.
    ///
    /// Once the task is cancelled no more calls begin; participants never called are reported
    /// as `.cancelled`, after the others.
    ///
    /// - Parameters:
    ///   - participants: Positions of the modules to call, in topological order.
    ///   - reversed: `false`: a module waits for its dependencies; `true`: for its dependents.
    ///   - started: Told of a call that begins (the module, its offset).
    ///   - finished: Told of a call that ends, with its report.
    ///   - isolation: The caller's actor, on which `started` and `finished` are called.
    /// - Complexity: O(participants) scheduling one at a time; O(commands + edges) concurrently.
    package func callAll(
        _ participants: [Int], reversed: Bool, concurrently: Bool,
        started: (CommandID, Duration) -> Void,
        finished: (ModuleCallReport) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        call: @escaping @Sendable (Int) async -> ModuleCallStatus
    ) async -> [ModuleCallReport] {
        guard !participants.isEmpty else { return [] }
        let commands = plan.storage.commands
        var reports: [Int: ModuleCallReport] = [:]
        var startOrder: [Int] = []
        var begins: [Int: Duration] = [:]

        func begin(_ position: Int) {
            let at = clock.elapsed()
            begins[position] = at
            startOrder.append(position)
            started(commands[position].id, at)
        }
        func end(_ position: Int, _ status: ModuleCallStatus) {
            let report = ModuleCallReport(
                module: commands[position].id, status: status, startOffset: begins[position], endOffset: clock.elapsed())
            reports[position] = report
            finished(report)
        }

        let ordered = reversed ? Array(participants.reversed()) : participants
        if concurrently {
            var walk = DependencyWalk(graph: plan.storage.graph, reversed: reversed, participants: participants)
            await withTaskGroup(of: (Int, ModuleCallStatus).self) { group in
                var running = 0
                while true {
                    if !Task.isCancelled {
                        for position in walk.takeReady() {
                            begin(position)
                            group.addTask { (position, await call(position)) }
                            running += 1
                        }
                    }
                    guard running > 0, let (position, status) = await group.next() else { break }
                    running -= 1
                    end(position, status)
                    walk.finish(position)
                }
            }
        } else {
            for position in ordered where !Task.isCancelled {
                begin(position)
                end(position, await call(position))
            }
        }

        var result = startOrder.map { reports[$0]! }
        for position in ordered where reports[position] == nil {
            end(position, .cancelled)
            result.append(reports[position]!)
        }
        return result
    }
}
