import StartupSeededRandom

/// The seeded shapes the scenarios use.
extension BenchGraph {
    /// Each command depends on `dependencies` distinct commands drawn uniformly from the `window`
    /// commands declared just before it (fewer at the start): random, but with a realistic width.
    ///
    /// - Complexity: O(commands × dependencies²).
    static func windowed(count: Int, dependencies: Int, window: Int, durationsMs: ClosedRange<Int>, seed: UInt64) -> BenchGraph {
        var random = SeededGenerator(seed: seed)
        let edges = (0..<count).map { command in
            random.distinct(dependencies, from: Swift.max(0, command - window)..<command)
        }
        return BenchGraph(
            label: "windowed random (\(dependencies) deps within the previous \(window))",
            dependencies: edges, durationsMs: draw(durationsMs, count: count, using: &random))
    }

    /// Each command but the first depends on 1...`maxDependencies` distinct commands drawn
    /// uniformly from all earlier ones (the reference harness's `random` shape).
    static func random(count: Int, maxDependencies: Int, durationsMs: ClosedRange<Int>, seed: UInt64) -> BenchGraph {
        var random = SeededGenerator(seed: seed)
        let edges = (0..<count).map { command in
            command == 0 ? [] : random.distinct(Int.random(in: 1...maxDependencies, using: &random), from: 0..<command)
        }
        return BenchGraph(
            label: "random (1...\(maxDependencies) deps on any earlier command)",
            dependencies: edges, durationsMs: draw(durationsMs, count: count, using: &random))
    }

    /// Commands split evenly into `layers` layers (default √count); each command of a layer depends
    /// on 1...`maxDependencies` distinct commands of the layer before.
    static func layered(count: Int, layers: Int? = nil, maxDependencies: Int, durationsMs: ClosedRange<Int>, seed: UInt64) -> BenchGraph {
        var random = SeededGenerator(seed: seed)
        let layerCount = Swift.max(1, Swift.min(count, layers ?? Int((Double(count).squareRoot()).rounded())))
        let layerOf = (0..<count).map { $0 * layerCount / count }
        var firstOfLayer = [Int](repeating: count, count: layerCount + 1)
        for command in (0..<count).reversed() { firstOfLayer[layerOf[command]] = command }
        let edges = (0..<count).map { command -> [Int] in
            let layer = layerOf[command]
            guard layer > 0 else { return [] }
            let previous = firstOfLayer[layer - 1]..<firstOfLayer[layer]
            return random.distinct(Int.random(in: 1...maxDependencies, using: &random), from: previous)
        }
        return BenchGraph(
            label: "layered (\(layerCount) layers, 1...\(maxDependencies) deps on the layer before)",
            dependencies: edges, durationsMs: draw(durationsMs, count: count, using: &random))
    }

    /// A graph built to punish first-come-first-served: `shortCount` short independent commands
    /// declared first, then `chains` chains of `chainLength` long commands. Declaration order starts
    /// the short ones first and the long chains, which decide the wall time, late.
    static func hiddenChains(
        shortCount: Int, shortMs: ClosedRange<Int>, chains: Int, chainLength: Int,
        chainMs: ClosedRange<Int>, seed: UInt64
    ) -> BenchGraph {
        var random = SeededGenerator(seed: seed)
        var edges = [[Int]](repeating: [], count: shortCount)
        var durations = draw(shortMs, count: shortCount, using: &random)
        for _ in 0..<chains {
            for link in 0..<chainLength {
                edges.append(link == 0 ? [] : [edges.count - 1])
                durations.append(Int.random(in: chainMs, using: &random))
            }
        }
        return BenchGraph(
            label: "hidden chains (\(shortCount) short first, then \(chains) chains of \(chainLength))",
            dependencies: edges, durationsMs: durations)
    }

    /// A single chain: each command depends on the one before.
    static func chain(count: Int) -> BenchGraph {
        BenchGraph(
            label: "chain", dependencies: (0..<count).map { $0 == 0 ? [] : [$0 - 1] },
            durationsMs: [Int](repeating: 0, count: count))
    }

    /// `count` durations drawn uniformly from `range`.
    private static func draw(_ range: ClosedRange<Int>, count: Int, using random: inout SeededGenerator) -> [Int] {
        (0..<count).map { _ in Int.random(in: range, using: &random) }
    }
}
