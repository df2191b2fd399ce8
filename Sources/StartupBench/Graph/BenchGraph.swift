/// A seeded test graph: commands numbered in declaration order, each depending only on earlier
/// ones (so declaration order is a topological order), each with an intended duration.
struct BenchGraph: Sendable {
    /// What the graph is, for the readable output, such as `random 300 x 1..3 deps`.
    let label: String
    /// `dependencies[i]` are the commands `i` depends on; all below `i`, sorted, distinct.
    let dependencies: [[Int]]
    /// The intended duration of each command in milliseconds (0: a no-op or `true`).
    let durationsMs: [Int]

    /// The number of commands.
    var count: Int { dependencies.count }

    /// The number of dependency edges.
    var edgeCount: Int { dependencies.reduce(0) { $0 + $1.count } }

    /// The sum of the intended durations: the time one slot would need.
    var totalWorkMs: Int { durationsMs.reduce(0, +) }

    /// The level of each command: 0 without dependencies, else one more than its deepest dependency.
    ///
    /// - Complexity: O(commands + edges).
    var levelOfCommand: [Int] {
        var level = [Int](repeating: 0, count: count)
        for command in 0..<count {
            for dependency in dependencies[command] {
                level[command] = Swift.max(level[command], level[dependency] + 1)
            }
        }
        return level
    }

    /// The commands grouped by level, each level in declaration order.
    var levels: [[Int]] {
        var levels: [[Int]] = []
        for (command, level) in levelOfCommand.enumerated() {
            while levels.count <= level { levels.append([]) }
            levels[level].append(command)
        }
        return levels
    }

    /// `dependents[i]` are the commands depending on `i`, in declaration order.
    ///
    /// - Complexity: O(commands + edges).
    var dependents: [[Int]] {
        var dependents = [[Int]](repeating: [], count: count)
        for command in 0..<count {
            for dependency in dependencies[command] { dependents[dependency].append(command) }
        }
        return dependents
    }

    /// The commands without dependents, in declaration order.
    var sinks: [Int] {
        var hasDependents = [Bool](repeating: false, count: count)
        for list in dependencies { for dependency in list { hasDependents[dependency] = true } }
        return (0..<count).filter { !hasDependents[$0] }
    }

    /// The longest chain of intended durations, in milliseconds (a cross-check of
    /// `StartupPlan.timing(durations:)`).
    ///
    /// - Complexity: O(commands + edges).
    var criticalPathMs: Int {
        var finish = [Int](repeating: 0, count: count)
        for command in 0..<count {
            let start = dependencies[command].map { finish[$0] }.max() ?? 0
            finish[command] = start + durationsMs[command]
        }
        return finish.max() ?? 0
    }

    /// `n commands, e edges, depth d, widest level w, work W ms, critical path C ms`.
    var shapeDescription: String {
        let levels = self.levels
        var text = "\(label): \(count) commands, \(edgeCount) edges, \(levels.count) levels, widest \(levels.map(\.count).max() ?? 0)"
        if totalWorkMs > 0 { text += ", work \(totalWorkMs) ms, critical path \(criticalPathMs) ms" }
        return text
    }
}
