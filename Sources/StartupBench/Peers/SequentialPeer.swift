/// The floor: a plain loop over a topological order, awaiting each body in turn.
enum SequentialPeer {
    /// Runs every command once, one at a time.
    static func run(_ graph: PreparedGraph, bodies: [Body]) async {
        for command in graph.order {
            await bodies[command]()
        }
    }
}
