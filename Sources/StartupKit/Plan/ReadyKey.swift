/// The order in which ready commands take free slots: higher effective priority first, then the
/// longer remaining path to the end of the graph (critical-path-first), then declaration order.
///
/// A command's effective priority is the highest of its own and that of every command that
/// depends on it, directly or not: marking the first screen `.high` raises its whole chain.
///
/// 16 bytes, so that the scheduler's heap (which moves keys on every start and end) and a key
/// with an urgency flag (``ReadyCandidate``) stay small: the priority is kept as 32 bits
/// (saturated; the manifest allows ±1,000,000) and the position as 32 bits (a plan of 2^31
/// commands would not fit in memory).
struct ReadyKey: Comparable, Sendable {
    /// The longest chain of estimates from the command to the end of the graph, in nanoseconds,
    /// plus one per command so that, without estimates, longer chains of commands still go first.
    let remainingPath: Int64
    private let storedPriority: Int32
    private let storedPosition: Int32

    /// A key; `priority` is saturated to 32 bits.
    init(priority: Int, remainingPath: Int64, position: Int) {
        self.remainingPath = remainingPath
        storedPriority = Int32(clamping: priority)
        storedPosition = Int32(clamping: position)
    }

    /// The command's effective priority value.
    var priority: Int { Int(storedPriority) }
    /// The command's declaration position.
    var position: Int { Int(storedPosition) }

    /// `lhs` should start before `rhs`.
    static func < (lhs: ReadyKey, rhs: ReadyKey) -> Bool {
        if lhs.storedPriority != rhs.storedPriority { return lhs.storedPriority > rhs.storedPriority }
        if lhs.remainingPath != rhs.remainingPath { return lhs.remainingPath > rhs.remainingPath }
        return lhs.storedPosition < rhs.storedPosition
    }

    /// The command's effective priority.
    var effectivePriority: CommandPriority { CommandPriority(priority) }

    /// The keys of every command, computed by one sweep in reverse topological order that reads
    /// each command's options once: a command's dependents are swept before it, so their
    /// remaining paths and effective priorities are known.
    ///
    /// - Complexity: O(commands + edges).
    static func keys(for commands: [AnyStartupCommand], graph: DependencyGraph) -> [ReadyKey] {
        var keys = [ReadyKey](repeating: ReadyKey(priority: 0, remainingPath: 0, position: 0), count: commands.count)
        for command in graph.order.reversed() {
            var longestAfter: Int64 = 0
            var priority = commands[command].options.priority.value
            // Order-only successors count too: a command that runs after this one waits for it.
            for dependent in graph.successors(of: command) {
                longestAfter = max(longestAfter, keys[dependent].remainingPath)
                priority = max(priority, keys[dependent].priority)
            }
            let own = (commands[command].options.estimate?.clampedNanoseconds ?? 0).addingSaturating(1)
            keys[command] = ReadyKey(
                priority: priority,
                remainingPath: longestAfter.addingSaturating(own), position: command)
        }
        return keys
    }
}
