import Foundation

/// One part of the bench: it prints what it measures and returns its figures.
@MainActor
protocol Scenario {
    /// The key of `--only`, such as `overhead`.
    var key: String { get }
    /// The heading printed before its lines.
    var title: String { get }
    /// Measures, prints details, and returns the figures for the summary.
    func run(_ options: BenchOptions) async -> [Figure]
}

extension Scenario {
    /// Prints one contender's median and spread, indented under the scenario's heading.
    func printSamples(_ name: String, _ samples: Samples, extra: String = "") {
        Console.line("  " + Format.padded(name, 22) + samples.description + extra)
    }

    /// A fresh directory under the temporary directory (or /tmp if that path has whitespace).
    func makeTemporaryDirectory() throws -> String {
        var base = FileManager.default.temporaryDirectory.path
        if base.contains(where: \.isWhitespace) { base = "/tmp" }
        let path = base + "/startup-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
