/// The critical-path analysis of a graph for given durations, as plain arrays by position: the
/// shared core of ``PlanTiming`` and of a run's report.
struct TimingSweep {
    /// The earliest start of each command: when its last dependency can have finished.
    let earliestStart: [Int64]
    /// The latest each command can start without delaying the end; never before its earliest start.
    private let latestStarts: [Int64]
    /// The durations the sweep used.
    let durations: [Int64]
    /// The earliest end of the whole graph: the length of the critical path.
    let end: Int64
    /// The critical path, from its first command to its last.
    let criticalPath: [Int]

    /// The latest a command can start without delaying the end; never before its earliest start.
    func latestStart(_ position: Int) -> Int64 {
        latestStarts[position]
    }

    /// Sweeps forward for earliest starts, backward for latest finishes, then walks the critical
    /// path back from the command that finishes last.
    ///
    /// Among equal candidates, the deepest chain wins: without durations, the longest by count.
    /// Negative durations count as zero. Sums saturate at `Int64.max` (292 years) instead of
    /// overflowing, and a latest start or finish is never before the earliest, so slack is never
    /// negative.
    ///
    /// - Complexity: O(commands + edges), no recursion.
    init(graph: DependencyGraph, durations: [Int64]) {
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
        var latestStarts = [Int64](repeating: 0, count: count)
        for command in graph.order.reversed() {
            var latestFinish = end
            for edge in dependentStart[command]..<dependentStart[command + 1] {
                latestFinish = min(latestFinish, latestStarts[dependentList[edge]])
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
    }
}
