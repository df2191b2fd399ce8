extension StartupReport {
    /// The time each module cost the launch: its commands' total duration, and its share of a
    /// path (by default the run's ``criticalPath``; pass the path to a milestone for the time to
    /// the first screen). Modules come in the order of their first command; the app's own
    /// commands are the module `nil`.
    ///
    /// ```swift
    /// for module in report.timeByModule() {
    ///     print(module.module ?? "app", module.totalDuration, module.criticalPathShare)
    /// }
    /// ```
    ///
    /// - Parameter path: The commands whose durations make up the path; ids the report does not
    ///   have are ignored.
    /// - Complexity: O(commands + path).
    public func timeByModule(along path: [CommandID]? = nil) -> [ModuleTime] {
        var order: [String?] = []
        var positions: [String?: Int] = [:]
        var members: [[CommandID]] = []
        var totals: [Duration] = []
        var onPath: [Duration] = []
        for command in commands {
            let position: Int
            if let known = positions[command.module] {
                position = known
            } else {
                position = order.count
                positions[command.module] = position
                order.append(command.module)
                members.append([])
                totals.append(.zero)
                onPath.append(.zero)
            }
            members[position].append(command.id)
            totals[position] += command.duration
        }
        var pathTotal = Duration.zero
        for id in path ?? criticalPath {
            guard let command = self[id], let position = positions[command.module] else { continue }
            onPath[position] += command.duration
            pathTotal += command.duration
        }
        return order.indices.map { position in
            ModuleTime(
                module: order[position], commands: members[position], totalDuration: totals[position],
                criticalPathDuration: onPath[position],
                criticalPathShare: pathTotal > .zero ? onPath[position] / pathTotal : 0)
        }
    }
}
