/// The critical-path analysis of a graph for given durations, as plain arrays by position: the
/// shared core of ``PlanTiming`` and of a run's report, for the whole graph or up to one milestone.
struct TimingSweep {
    /// The earliest start of each command: when its last dependency can have finished.
    let earliestStart: [Int64]
    /// The latest each command can start without delaying the end; never before its earliest start.
    private let latestStarts: [Int64]
    /// The durations the sweep used.
    let durations: [Int64]
    /// The earliest end of the whole graph, or of the milestone: the length of the critical path.
    let end: Int64
    /// The critical path, from its first command to its last (the milestone, if there is one).
    let criticalPath: [Int]
    /// Whether each command is the milestone or one it waits for, directly or not: the commands
    /// whose latest start means something. All of them for the whole graph.
    let leadsToEnd: [Bool]

    /// The latest a command can start without delaying the end; never before its earliest start.
    /// Meaningful for the commands that lead to the end (``leadsToEnd``).
    func latestStart(_ position: Int) -> Int64 {
        latestStarts[position]
    }

    /// Sweeps forward for earliest starts, backward for latest finishes, then walks the critical
    /// path back from the command that finishes last, or from the milestone.
    ///
    /// Among equal candidates, the deepest chain wins: without durations, the longest by count.
    /// Negative durations count as zero. Sums saturate at `Int64.max` (292 years) instead of
    /// overflowing, and a latest start or finish is never before the earliest, so slack is never
    /// negative.
    ///
    /// - Parameter milestone: The position of the command whose end counts instead of the whole
    ///   graph's; latest starts are then those that do not delay it.
    /// - Complexity: O(commands + edges), no recursion.
    init(graph: DependencyGraph, durations: [Int64], milestone: Int? = nil) {
        let durations = durations.map { max(0, $0) }
        let count = graph.count
        let (dependencyStart, dependencyList) = (graph.dependencyStart, graph.dependencyList)
        let (dependentStart, dependentList) = (graph.dependentStart, graph.dependentList)
        let level = graph.level
        var earliest = [Int64](repeating: 0, count: count)
        var earliestFinish = [Int64](repeating: 0, count: count)
        var end: Int64 = 0
        var last = -1
        for command in graph.order {
            var start: Int64 = 0
            for edge in dependencyStart[command]..<dependencyStart[command + 1] {
                start = max(start, earliestFinish[dependencyList[edge]])
            }
            earliest[command] = start
            let finish = start.addingSaturating(durations[command])
            earliestFinish[command] = finish
            if last == -1 || finish > end || (finish == end && level[command] > level[last]) {
                end = finish
                last = command
            }
        }
        if let milestone {
            end = earliestFinish[milestone]
            last = milestone
        }
        var latestStarts = [Int64](repeating: 0, count: count)
        // In reverse order a command's dependents come first, so whether they lead to the end is known.
        var leadsToEnd = [Bool](repeating: milestone == nil, count: count)
        if let milestone { leadsToEnd[milestone] = true }
        for command in graph.order.reversed() {
            var latestFinish = leadsToEnd[command] ? end : .max
            for edge in dependentStart[command]..<dependentStart[command + 1] where leadsToEnd[dependentList[edge]] {
                latestFinish = min(latestFinish, latestStarts[dependentList[edge]])
                leadsToEnd[command] = true
            }
            // Cannot overflow: both are at least 0. The `max` changes nothing unless a sum
            // saturated, which can put the difference before the earliest start.
            latestStarts[command] = max(latestFinish - durations[command], earliest[command])
        }

        var path: [Int] = []
        var step = last
        while step >= 0 {
            path.append(step)
            // The dependency that finished last held this command back.
            var holdingBack = -1
            for edge in dependencyStart[step]..<dependencyStart[step + 1] {
                let dependency = dependencyList[edge]
                if earliestFinish[dependency] == earliest[step], holdingBack == -1 || level[dependency] > level[holdingBack] {
                    holdingBack = dependency
                }
            }
            step = holdingBack
        }
        self.earliestStart = earliest
        self.latestStarts = latestStarts
        self.durations = durations
        self.end = end
        self.criticalPath = path.reversed()
        self.leadsToEnd = leadsToEnd
    }
}
