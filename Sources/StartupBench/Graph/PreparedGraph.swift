/// What the in-bench peers precompute before a run, their counterpart of building a plan:
/// dependents, dependency counts, roots, levels and a topological order.
struct PreparedGraph: Sendable {
    /// `dependents[i]` are the commands depending on `i`.
    let dependents: [[Int]]
    /// How many dependencies each command has.
    let dependencyCounts: [Int]
    /// The commands without dependencies, in declaration order.
    let roots: [Int]
    /// The commands level by level (waves).
    let levels: [[Int]]
    /// Every command after its dependencies.
    let order: [Int]

    /// Prepares a graph.
    ///
    /// - Complexity: O(commands + edges).
    init(_ graph: BenchGraph) {
        dependents = graph.dependents
        dependencyCounts = graph.dependencies.map(\.count)
        roots = (0..<graph.count).filter { graph.dependencies[$0].isEmpty }
        levels = graph.levels
        order = Array(0..<graph.count)  // Generators only ever depend on earlier commands.
    }
}
