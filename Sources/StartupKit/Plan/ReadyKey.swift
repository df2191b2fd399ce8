/// The order in which ready commands take free slots: higher effective priority first, then the
/// longer remaining path to the end of the graph (critical-path-first), then declaration order.
///
/// A command's effective priority is the highest of its own and that of every command that
/// depends on it, directly or not: marking the first screen `.high` raises its whole chain.
struct ReadyKey: Comparable, Sendable {
    /// The command's effective priority value.
    let priority: Int
    /// The longest chain of estimates from the command to the end of the graph, in nanoseconds,
    /// plus one per command so that, without estimates, longer chains of commands still go first.
    let remainingPath: Int64
    /// The command's declaration position.
    let position: Int

    /// `lhs` should start before `rhs`.
    static func < (lhs: ReadyKey, rhs: ReadyKey) -> Bool {
        if lhs.priority != rhs.priority { return lhs.priority > rhs.priority }
        if lhs.remainingPath != rhs.remainingPath { return lhs.remainingPath > rhs.remainingPath }
        return lhs.position < rhs.position
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
            for dependent in graph.dependents(of: command) {
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
