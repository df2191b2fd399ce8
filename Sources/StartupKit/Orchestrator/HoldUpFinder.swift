/// Finds what holds up unfinished commands: for each, the unfinished commands at the front of
/// what it waits for (running, ready for a slot, or gates not opened) and the chain between them.
/// What a command waits for is its dependencies and the wanted commands it runs `after`, as the
/// scheduler holds it. Reads a snapshot of a run's state; used when a wait times out.
struct HoldUpFinder {
    let commands: [AnyStartupCommand]
    let graph: DependencyGraph
    let records: [CommandRecord]
    /// Which commands the run wants (an `after` edge to one it does not want holds nothing up).
    let wanted: [Bool]
    /// The time of the timeout, from the start of the run.
    let now: Duration

    /// The hold-ups of the unfinished commands of `awaited`, in its order, each once.
    ///
    /// - Complexity: O(unfinished ancestors + their edges) per awaited command.
    func holdUps(of awaited: [Int]) -> [StartupWaitError.HoldUp] {
        var seen = Set<Int>()
        return awaited.compactMap { position in
            guard records[position].progress != .done, seen.insert(position).inserted else { return nil }
            return StartupWaitError.HoldUp(command: commands[position].id, blockers: blockers(of: position))
        }
    }

    /// A breadth-first walk from `awaited` through unfinished dependencies and wanted, unfinished
    /// commands it runs after, so each blocker's chain is a shortest one; blockers are listed in
    /// the order the walk meets them.
    private func blockers(of awaited: Int) -> [StartupWaitError.Blocker] {
        var parent: [Int: Int] = [awaited: awaited]
        var queue = [awaited]
        var next = 0
        var found: [StartupWaitError.Blocker] = []
        while next < queue.count {
            let position = queue[next]
            next += 1
            let pending =
                graph.dependencies(of: position).filter { records[$0].progress != .done }
                + graph.orderOnlyPredecessors(of: position).filter { wanted[$0] && records[$0].progress != .done }
            guard pending.isEmpty else {
                for dependency in pending where parent[dependency] == nil {
                    parent[dependency] = position
                    queue.append(dependency)
                }
                continue
            }
            guard let state = state(of: position) else { continue }
            found.append(
                StartupWaitError.Blocker(
                    command: commands[position].id, state: state,
                    through: chain(to: position, from: awaited, parent: parent)))
        }
        return found
    }

    private func state(of position: Int) -> StartupWaitError.Blocker.State? {
        let record = records[position]
        switch record.progress {
        case .running: return .running(for: now - (record.startOffset ?? now), attempt: Int(record.attempts))
        // Reached only when everything it waits for is done: ready, whether marked so or not.
        case .ready, .waiting: return .waitingForSlot
        case .gateClosed: return .gateNotOpened
        case .done: return nil
        }
    }

    /// The commands strictly between `awaited` and `blocker`, nearest to `awaited` first.
    private func chain(to blocker: Int, from awaited: Int, parent: [Int: Int]) -> [CommandID] {
        var chain: [CommandID] = []
        var position = parent[blocker] ?? awaited
        while position != awaited, blocker != awaited {
            chain.append(commands[position].id)
            position = parent[position] ?? awaited
        }
        return chain.reversed()
    }
}
