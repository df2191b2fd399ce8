import Foundation

/// Writes one graph in the three formats the CLI scenario runs: `commands.json` for `startup`, a
/// `Makefile` of phony targets, and a `build.ninja` whose outputs are never created (so every edge
/// runs on every invocation).
enum DAGFiles {
    /// Writes `commands.json`, `Makefile` and `build.ninja` into `directory`.
    ///
    /// - Throws: If a file cannot be written.
    static func write(_ graph: BenchGraph, to directory: String) throws {
        let width = max(4, String(graph.count - 1).count)
        let ids = (0..<graph.count).map { "n" + String(repeating: "0", count: width - String($0).count) + String($0) }
        let runs = graph.durationsMs.map(shellCommand)
        let sinks = graph.sinks.map { ids[$0] }.joined(separator: " ")

        var json = "{\"version\":1,\"commands\":[\n"
        for command in 0..<graph.count {
            let dependencies = graph.dependencies[command].map { "\"\(ids[$0])\"" }.joined(separator: ",")
            json +=
                " {\"id\":\"\(ids[command])\",\"dependencies\":[\(dependencies)],\"run\":\"\(runs[command])\",\"estimate\":\"\(graph.durationsMs[command])ms\"}"
            json += command == graph.count - 1 ? "\n" : ",\n"
        }
        json += "]}\n"

        var makefile = ".SUFFIXES:\n.PHONY: all \(ids.joined(separator: " "))\nall: \(sinks)\n"
        for command in 0..<graph.count {
            makefile += "\(ids[command]): " + graph.dependencies[command].map { ids[$0] }.joined(separator: " ") + "\n"
            makefile += "\t@\(runs[command])\n"
        }

        var ninja = "ninja_required_version = 1.5\nrule r\n  command = $cmd\n\n"
        for command in 0..<graph.count {
            ninja += "build \(ids[command]): r"
            if !graph.dependencies[command].isEmpty {
                ninja += " | " + graph.dependencies[command].map { ids[$0] }.joined(separator: " ")
            }
            ninja += "\n  cmd = \(runs[command])\n"
        }
        ninja += "build all: phony \(sinks)\ndefault all\n"

        try json.write(toFile: directory + "/commands.json", atomically: true, encoding: .utf8)
        try makefile.write(toFile: directory + "/Makefile", atomically: true, encoding: .utf8)
        try ninja.write(toFile: directory + "/build.ninja", atomically: true, encoding: .utf8)
    }

    /// `true` for 0 ms, else `sleep 0.0XX`.
    private static func shellCommand(milliseconds: Int) -> String {
        guard milliseconds > 0 else { return "true" }
        let fraction = String(milliseconds % 1_000)
        return "sleep \(milliseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
