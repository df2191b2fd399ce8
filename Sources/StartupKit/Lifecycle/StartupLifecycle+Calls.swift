extension StartupLifecycle {
    /// Calls `call` for every participant, each after the participants it waits for (its
    /// dependencies, or its dependents when `reversed`), one at a time or, `concurrently`, each as
    /// soon as it may; tells the observers, and reports each call in the order the calls began.
    ///
    /// Once the task is cancelled no more calls begin; participants never called are reported
    /// as `.cancelled`, after the others.
    ///
    /// - Parameters:
    ///   - participants: Positions of the modules to call, in topological order.
    ///   - started: The activity for a call that begins (module, offset).
    ///   - finished: The activity for a call that ends (module, status, start offset, offset).
    /// - Complexity: O(participants) scheduling one at a time; O(commands + edges) concurrently.
    func callModules(
        _ participants: [Int], reversed: Bool, concurrently: Bool,
        started: (CommandID, Duration) -> LifecycleActivity,
        finished: (CommandID, ModuleCallStatus, Duration?, Duration) -> LifecycleActivity,
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
            notify(started(commands[position].id, at))
        }
        func end(_ position: Int, _ status: ModuleCallStatus) {
            let at = clock.elapsed()
            let id = commands[position].id
            reports[position] = ModuleCallReport(module: id, status: status, startOffset: begins[position], endOffset: at)
            notify(finished(id, status, begins[position], at))
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
