/// The commands' dependency edges in compressed adjacency form, with a topological order and
/// levels. Commands are numbered by declaration order.
struct DependencyGraph: Sendable {
    /// `dependencyList[dependencyStart[i]..<dependencyStart[i + 1]]` are the dependencies of `i`.
    let dependencyStart: [Int]
    let dependencyList: [Int]
    /// `dependentList[dependentStart[i]..<dependentStart[i + 1]]` are the commands depending on `i`.
    let dependentStart: [Int]
    let dependentList: [Int]
    /// Every command after all of its dependencies; among equals, in declaration order of readiness.
    let order: [Int]
    /// 0 for commands without dependencies, else one more than the highest level among them.
    let level: [Int]

    /// The number of commands.
    var count: Int { dependencyStart.count - 1 }

    /// The dependencies of `command`.
    func dependencies(of command: Int) -> ArraySlice<Int> {
        dependencyList[dependencyStart[command]..<dependencyStart[command + 1]]
    }

    /// The commands that depend on `command`.
    func dependents(of command: Int) -> ArraySlice<Int> {
        dependentList[dependentStart[command]..<dependentStart[command + 1]]
    }

    /// Creates the graph from resolved, duplicate-free dependency lists, or returns the commands
    /// left unsorted because they are on or behind a cycle.
    ///
    /// - Complexity: O(commands + edges), no recursion.
    static func make(dependencyStart: [Int], dependencyList: [Int]) -> Result<DependencyGraph, UnsortedCommands> {
        let count = dependencyStart.count - 1
        var dependentStart = [Int](repeating: 0, count: count + 1)
        for target in dependencyList { dependentStart[target + 1] += 1 }
        for i in 0..<count { dependentStart[i + 1] += dependentStart[i] }
        var fill = dependentStart
        var dependentList = [Int](repeating: 0, count: dependencyList.count)
        for command in 0..<count {
            for edge in dependencyStart[command]..<dependencyStart[command + 1] {
                let target = dependencyList[edge]
                dependentList[fill[target]] = command
                fill[target] += 1
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
