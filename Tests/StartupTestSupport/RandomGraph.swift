import StartupKit
import StartupSeededRandom

/// A dependency graph for tests: `dependencies[i]` are indices lower than `i`, so it is acyclic.
public struct RandomGraph: CustomStringConvertible, Sendable {
    public enum Shape: String, CaseIterable, Sendable {
        case chain, wide, layered, random, diamonds
    }

    public let shape: Shape
    public let seed: UInt64
    public let dependencies: [[Int]]
    public let durations: [Int64]
    public let priorities: [Int]
    /// Order-only edges: `after[i]` are indices lower than `i`, none among `dependencies[i]`.
    /// Drawn from their own generator, so the other fields are as they were before them.
    public let after: [[Int]]

    public var count: Int { dependencies.count }

    public static func id(_ index: Int) -> CommandID { CommandID("c\(index)") }

    public init(shape: Shape, seed: UInt64, maxCount: Int = 24) {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...maxCount, using: &random)
        var dependencies: [[Int]] = Array(repeating: [], count: count)
        switch shape {
        case .chain:
            for i in 1..<max(count, 1) { dependencies[i] = [i - 1] }
        case .wide:
            break
        case .layered:
            let width = Int.random(in: 1...4, using: &random)
            for i in width..<max(count, width) where i < count {
                let layerStart = (i / width - 1) * width
                let candidates = Array(layerStart..<(layerStart + width))
                dependencies[i] = Array(candidates.shuffled(using: &random).prefix(Int.random(in: 1...width, using: &random)))
            }
        case .random:
            for i in 1..<max(count, 1) {
                let degree = Int.random(in: 0...min(i, 4), using: &random)
                dependencies[i] = Array((0..<i).shuffled(using: &random).prefix(degree))
            }
        case .diamonds:
            // Repeated diamonds: top -> (left, right) -> bottom, each top the previous bottom.
            for i in 1..<max(count, 1) {
                switch i % 3 {
                case 1, 2: dependencies[i] = [i - (i % 3 == 1 ? 1 : 2)]
                default: dependencies[i] = [i - 1, i - 2]
                }
            }
        }
        self.shape = shape
        self.seed = seed
        self.dependencies = dependencies
        self.durations = (0..<count).map { _ in Int64.random(in: 0...50, using: &random) }
        self.priorities = (0..<count).map { _ in Int.random(in: -1...1, using: &random) }
        var afterRandom = SeededGenerator(seed: seed &+ 0x9E37_79B9)
        self.after = (0..<count).map { i in
            let candidates = (0..<i).filter { !dependencies[i].contains($0) }
            return Array(candidates.shuffled(using: &afterRandom).prefix(Int.random(in: 0...min(candidates.count, 3), using: &afterRandom)))
        }
    }

    /// A plan whose commands run `body` with their index; with `orderOnly`, they also run `after`
    /// the commands in ``after``.
    public func plan(
        orderOnly: Bool = false,
        body: @escaping @Sendable (Int) async throws -> Void = { _ in },
        options: (Int) -> CommandOptions = { _ in CommandOptions() }
    ) throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        for index in 0..<count {
            builder.add(
                Self.id(index), dependsOn: dependencies[index].map(Self.id), after: orderOnly ? after[index].map(Self.id) : [],
                options: options(index)
            ) { _ in
                try await body(index)
            }
        }
        return try builder.build()
    }

    public var description: String { "\(shape) seed \(seed) (\(count) commands)" }

    public static func all(seeds: Int) -> [RandomGraph] {
        Shape.allCases.flatMap { shape in (0..<UInt64(seeds)).map { RandomGraph(shape: shape, seed: $0) } }
    }
}
