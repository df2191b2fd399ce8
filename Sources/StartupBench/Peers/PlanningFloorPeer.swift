import StartupKit

/// The floor for planning, as the design defines it: hash every id into a dictionary once, look
/// every edge up once, and sort the integer graph with Kahn's algorithm, nothing else (no
/// validation, no duplicate or self-dependency checks, no levels, no suggestions).
enum PlanningFloorPeer {
    /// Sorts the commands topologically.
    ///
    /// - Parameters:
    ///   - ids: The command identifiers, in declaration order.
    ///   - dependencies: `dependencies[i]` are the identifiers command `i` depends on.
    /// - Returns: Every command position after its dependencies, or `nil` if an identifier is
    ///   unknown or the graph has a cycle.
    /// - Complexity: O(commands + edges).
    static func sort(ids: [CommandID], dependencies: [[CommandID]]) -> [Int]? {
        let count = ids.count
        var index: [CommandID: Int] = [:]
        index.reserveCapacity(count)
        for position in ids.indices { index[ids[position]] = position }

        // Every edge looked up once, into compressed lists of dependencies, counting dependents.
        var dependencyStart = [Int](repeating: 0, count: count + 1)
        var dependencyList: [Int] = []
        dependencyList.reserveCapacity(dependencies.reduce(0) { $0 + $1.count })
        var dependentStart = [Int](repeating: 0, count: count + 1)
        for command in 0..<count {
            for dependency in dependencies[command] {
                guard let target = index[dependency] else { return nil }
                dependencyList.append(target)
                dependentStart[target + 1] += 1
            }
            dependencyStart[command + 1] = dependencyList.count
        }

        // Kahn's algorithm walks from each command to its dependents: one counting pass groups them.
        for position in 0..<count { dependentStart[position + 1] += dependentStart[position] }
        var fill = dependentStart
        var dependentList = [Int](repeating: 0, count: dependencyList.count)
        var pending = [Int](repeating: 0, count: count)
        for command in 0..<count {
            pending[command] = dependencyStart[command + 1] - dependencyStart[command]
            for edge in dependencyStart[command]..<dependencyStart[command + 1] {
                let target = dependencyList[edge]
                dependentList[fill[target]] = command
                fill[target] += 1
            }
        }

        // The order doubles as the queue: `order[..<tail]` is sorted so far, `order[head..<tail]` ready.
        var order = [Int](repeating: 0, count: count)
        var tail = 0
        for command in 0..<count where pending[command] == 0 {
            order[tail] = command
            tail += 1
        }
        var head = 0
        while head < tail {
            let command = order[head]
            head += 1
            for dependent in dependentList[dependentStart[command]..<dependentStart[command + 1]] {
                pending[dependent] -= 1
                guard pending[dependent] == 0 else { continue }
                order[tail] = dependent
                tail += 1
            }
        }
        return tail == count ? order : nil
    }
}
