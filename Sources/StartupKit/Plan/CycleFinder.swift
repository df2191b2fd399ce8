/// Finds one cycle per strongly connected component among commands a topological sort left over.
enum CycleFinder {
    /// Returns one cycle for every group of commands that depend on each other in a circle, as
    /// command numbers with the first repeated at the end, each starting at the group's earliest
    /// declared command and following dependencies along a shortest way round.
    ///
    /// - Parameters:
    ///   - isCandidate: The commands to consider (those left unsorted).
    ///   - dependencies: The dependencies of a command.
    /// - Complexity: O(commands + edges), iterative (Tarjan's algorithm, then a breadth-first search
    ///   inside each component).
    static func cycles(
        among isCandidate: [Bool],
        dependencies: (Int) -> ArraySlice<Int>
    ) -> [[Int]] {
        let components = stronglyConnectedComponents(among: isCandidate, dependencies: dependencies)
        var component = [Int](repeating: -1, count: isCandidate.count)
        for (number, members) in components.enumerated() {
            for member in members { component[member] = number }
        }
        var parent = [Int](repeating: -1, count: isCandidate.count)
        var cycles: [[Int]] = []
        for (number, members) in components.enumerated() where members.count > 1 {
            let start = members.min()!
            cycles.append(
                shortestCycle(
                    through: start, inComponent: number, component: component,
                    parent: &parent, dependencies: dependencies))
        }
        return cycles.sorted { $0[0] < $1[0] }
    }

    private static func shortestCycle(
        through start: Int, inComponent number: Int, component: [Int], parent: inout [Int],
        dependencies: (Int) -> ArraySlice<Int>
    ) -> [Int] {
        var queue = [start]
        var head = 0
        parent[start] = start
        while head < queue.count {
            let command = queue[head]
            head += 1
            for dependency in dependencies(command) where component[dependency] == number {
                if dependency == start {
                    var middle: [Int] = []
                    var step = command
                    while step != start {
                        middle.append(step)
                        step = parent[step]
                    }
                    return [start] + middle.reversed() + [start]
                }
                if parent[dependency] == -1 {
                    parent[dependency] = command
                    queue.append(dependency)
                }
            }
        }
        preconditionFailure("a strongly connected component of several commands always has a cycle")
    }

    private static func stronglyConnectedComponents(
        among isCandidate: [Bool],
        dependencies: (Int) -> ArraySlice<Int>
    ) -> [[Int]] {
        let count = isCandidate.count
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var nextIndex = 0
        var components: [[Int]] = []
        // Each frame: a command and how far through its dependencies the walk has gone.
        var frames: [(command: Int, position: Int)] = []

        for root in 0..<count where isCandidate[root] && index[root] == -1 {
            func enter(_ command: Int) {
                index[command] = nextIndex
                lowLink[command] = nextIndex
                nextIndex += 1
                stack.append(command)
                onStack[command] = true
                frames.append((command, dependencies(command).startIndex))
            }
            enter(root)
            while let frame = frames.last {
                let edges = dependencies(frame.command)
                if frame.position < edges.endIndex {
                    frames[frames.count - 1].position += 1
                    let next = edges[frame.position]
                    guard isCandidate[next] else { continue }
                    if index[next] == -1 {
                        enter(next)
                    } else if onStack[next] {
                        lowLink[frame.command] = min(lowLink[frame.command], index[next])
                    }
                    continue
                }
                frames.removeLast()
                if let caller = frames.last {
                    lowLink[caller.command] = min(lowLink[caller.command], lowLink[frame.command])
                }
                if lowLink[frame.command] == index[frame.command] {
                    var members: [Int] = []
                    while true {
                        let member = stack.removeLast()
                        onStack[member] = false
                        members.append(member)
                        if member == frame.command { break }
                    }
                    components.append(members)
                }
            }
        }
        return components
    }
}
