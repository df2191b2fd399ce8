/// The work of one command, the same closure for StartupKit and every peer.
typealias Body = @Sendable () async -> Void

/// Makers of command bodies.
enum Bodies {
    /// `count` no-op bodies.
    static func noOps(count: Int) -> [Body] {
        let noOp: Body = {}
        return [Body](repeating: noOp, count: count)
    }

    /// One body per duration, each an async sleep of that many milliseconds.
    static func sleeps(milliseconds: [Int]) -> [Body] {
        milliseconds.map { milliseconds in
            { try? await Task.sleep(for: .milliseconds(milliseconds)) }
        }
    }
}
