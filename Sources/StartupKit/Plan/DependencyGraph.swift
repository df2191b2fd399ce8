/// The commands' edges in compressed adjacency form, with a topological order and levels.
/// Commands are numbered by declaration order.
///
/// Two kinds of edge share the lists: dependencies (the predecessor must succeed, and its output
/// can be read) and order-only `after` edges (the successor only waits for the predecessor to
/// end, if it runs). Each command's slice holds its dependencies first, then its order-only
/// edges; the order, the levels, cycles and timing follow both kinds.
struct DependencyGraph: Sendable {
    /// `dependencyList[dependencyStart[i]..<dependencyStart[i + 1]]` are the predecessors of `i`.
    let dependencyStart: [Int]
    let dependencyList: [Int]
    /// `dependentList[dependentStart[i]..<dependentStart[i + 1]]` are the successors of `i`.
    let dependentStart: [Int]
    let dependentList: [Int]
    /// Where each command's order-only predecessors begin in `dependencyList`, and its order-only
    /// successors in `dependentList`; both empty when the graph has no order-only edge.
    let orderOnlyDependencyStart: [Int]
    let orderOnlyDependentStart: [Int]
    /// Every command after all of its dependencies; among equals, in declaration order of readiness.
    let order: [Int]
    /// 0 for commands without dependencies, else one more than the highest level among them.
    let level: [Int]

    /// The number of commands.
    var count: Int { dependencyStart.count - 1 }

    /// Whether any command runs `after` another.
    var hasOrderOnly: Bool { !orderOnlyDependencyStart.isEmpty }

    /// The dependencies of `command`: the commands that must succeed first.
    func dependencies(of command: Int) -> ArraySlice<Int> {
        dependencyList[dependencyStart[command]..<requiredEnd(of: command)]
    }

    /// The commands that depend on `command`.
    func dependents(of command: Int) -> ArraySlice<Int> {
        dependentList[dependentStart[command]..<(hasOrderOnly ? orderOnlyDependentStart[command] : dependentStart[command + 1])]
    }

    /// The commands `command` runs after, if they run (order-only edges).
    func orderOnlyPredecessors(of command: Int) -> ArraySlice<Int> {
        hasOrderOnly ? dependencyList[orderOnlyDependencyStart[command]..<dependencyStart[command + 1]] : []
    }

    /// The commands that run after `command` (order-only edges).
    func orderOnlySuccessors(of command: Int) -> ArraySlice<Int> {
        hasOrderOnly ? dependentList[orderOnlyDependentStart[command]..<dependentStart[command + 1]] : []
    }

    /// Every command that waits for `command`: its dependents, then those that run after it.
    func successors(of command: Int) -> ArraySlice<Int> {
        dependentList[dependentStart[command]..<dependentStart[command + 1]]
    }

    /// Every command `command` waits for: its dependencies, then those it runs after.
    func predecessors(of command: Int) -> ArraySlice<Int> {
        dependencyList[dependencyStart[command]..<dependencyStart[command + 1]]
    }

    /// Where the dependencies of `command` end in `dependencyList`.
    private func requiredEnd(of command: Int) -> Int {
        hasOrderOnly ? orderOnlyDependencyStart[command] : dependencyStart[command + 1]
    }

    /// Creates the graph from resolved, duplicate-free edge lists, or returns the commands left
    /// unsorted because they are on or behind a cycle.
    ///
    /// - Parameter orderOnlyDependencyStart: Where each command's order-only edges begin in its
    ///   slice of `dependencyList` (after its dependencies); empty when there are none.
    /// - Complexity: O(commands + edges), no recursion.
    static func make(
        dependencyStart: [Int], dependencyList: [Int], orderOnlyDependencyStart: [Int] = []
    ) -> Result<DependencyGraph, UnsortedCommands> {
        let count = dependencyStart.count - 1
        let hasOrderOnly = !orderOnlyDependencyStart.isEmpty
        var dependentStart = [Int](repeating: 0, count: count + 1)
        for target in dependencyList { dependentStart[target + 1] += 1 }
        for i in 0..<count { dependentStart[i + 1] += dependentStart[i] }
        var dependentList = [Int](repeating: 0, count: dependencyList.count)
        var orderOnlyDependentStart: [Int] = []
        if hasOrderOnly {
            // Each command's successors: its dependents first, then the commands that run after it.
            var requiredCount = [Int](repeating: 0, count: count)
            for command in 0..<count {
                for edge in dependencyStart[command]..<orderOnlyDependencyStart[command] { requiredCount[dependencyList[edge]] += 1 }
            }
            orderOnlyDependentStart = (0..<count).map { dependentStart[$0] + requiredCount[$0] }
            var fill = dependentStart
            var orderOnlyFill = orderOnlyDependentStart
            for command in 0..<count {
                for edge in dependencyStart[command]..<dependencyStart[command + 1] {
                    let target = dependencyList[edge]
                    if edge < orderOnlyDependencyStart[command] {
                        dependentList[fill[target]] = command
                        fill[target] += 1
                    } else {
                        dependentList[orderOnlyFill[target]] = command
                        orderOnlyFill[target] += 1
                    }
                }
            }
        } else {
            var fill = dependentStart
            for command in 0..<count {
                for edge in dependencyStart[command]..<dependencyStart[command + 1] {
                    let target = dependencyList[edge]
                    dependentList[fill[target]] = command
                    fill[target] += 1
                }
            }
        }

        var pending = [Int](repeating: 0, count: count)
        var order: [Int] = []
        order.reserveCapacity(count)
        for command in 0..<count {
            pending[command] = dependencyStart[command + 1] - dependencyStart[command]
            if pending[command] == 0 { order.append(command) }
        }
        var level = [Int](repeating: 0, count: count)
        var head = 0
        while head < order.count {
            let command = order[head]
            head += 1
            for edge in dependentStart[command]..<dependentStart[command + 1] {
                let dependent = dependentList[edge]
                level[dependent] = max(level[dependent], level[command] + 1)
                pending[dependent] -= 1
                if pending[dependent] == 0 { order.append(dependent) }
            }
        }
        guard order.count == count else {
            return .failure(UnsortedCommands(isUnsorted: pending.map { $0 > 0 }))
        }
        return .success(
            DependencyGraph(
                dependencyStart: dependencyStart, dependencyList: dependencyList,
                dependentStart: dependentStart, dependentList: dependentList,
                orderOnlyDependencyStart: orderOnlyDependencyStart, orderOnlyDependentStart: orderOnlyDependentStart,
                order: order, level: level))
    }

    /// Whether `ancestor` is a direct or transitive dependency of `command`.
    ///
    /// - Complexity: O(degree) for a direct dependency, else O(ancestors of `command`).
    func isDependency(_ ancestor: Int, of command: Int) -> Bool {
        if dependencies(of: command).contains(ancestor) { return true }
        guard level[ancestor] < level[command] else { return false }
        var seen: Set<Int> = [command]
        var stack = [command]
        while let next = stack.popLast() {
            for dependency in dependencies(of: next) where level[dependency] >= level[ancestor] {
                if dependency == ancestor { return true }
                if seen.insert(dependency).inserted { stack.append(dependency) }
            }
        }
        return false
    }
}

/// The commands a topological sort could not place: those on a cycle or depending on one.
struct UnsortedCommands: Error {
    /// `isUnsorted[i]` is true for every command left unsorted.
    let isUnsorted: [Bool]
}
