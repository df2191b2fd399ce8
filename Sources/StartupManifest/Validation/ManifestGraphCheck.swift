import StartupKit
import StartupSupport

/// Checks a manifest's commands as a graph, with StartupKit's own builder's checks, and words the problems
/// in terms of the manifest: `commands[4] ("database").dependencies[1]: unknown command "confg"`.
enum ManifestGraphCheck {
    /// The graph problems of the commands: duplicate ids, unknown dependencies, self-dependencies,
    /// `after` ids that are unknown, name the command itself or one of its dependencies, and
    /// cycles, through `after` edges too (invalid ids are the decoder's).
    static func problems(in sources: [CommandSource]) -> [ManifestProblem] {
        var problems = afterProblems(in: sources)
        // An `after` naming the command itself is reported above, not again as a cycle of one.
        let issues = StartupPlanBuilder.issues(
            ids: sources.map(\.id), after: { position in sources[position].after.filter { $0 != sources[position].id } }
        ) { sources[$0].dependencies }
        guard !issues.isEmpty else { return problems }
        // Each id's first position, for the words of a cycle through `after`: made only when there are issues.
        var positions: [CommandID: Int] = [:]
        for (position, source) in sources.enumerated() where positions[source.id] == nil { positions[source.id] = position }
        problems += issues.compactMap { problem(for: $0, sources: sources, positions: positions) }
        return problems
    }

    /// The problems of `"after"` arrays that the library would pass over: an id no command has
    /// (with the closest one it has), the command's own id, and a dependency of the command
    /// (which orders it already, and whose failure skips the command: one of the two is a
    /// mistake). An id named twice counts once, as in `"dependencies"`.
    ///
    /// - Complexity: O(commands + edges), plus a bounded amount per unknown id.
    private static func afterProblems(in sources: [CommandSource]) -> [ManifestProblem] {
        guard sources.contains(where: { !$0.after.isEmpty }) else { return [] }
        let ids = Set(sources.map(\.id))
        var suggestions: IdentifierSuggestionIndex?  // Built at the first unknown id.
        var problems: [ManifestProblem] = []
        for source in sources where !source.after.isEmpty {
            for (position, predecessor) in source.after.enumerated() {
                let location = source.afterLocations[position]
                let path = "\(source.path).after[\(source.afterIndexes[position])]"
                func report(_ message: String) {
                    problems.append(ManifestProblem(line: location.line, column: location.column, path: path, message: message))
                }
                if predecessor == source.id {
                    report("\(MessageQuoting.quoted(predecessor)) cannot run after itself")
                } else if !ids.contains(predecessor) {
                    if suggestions == nil { suggestions = IdentifierSuggestionIndex(sources.map(\.id.rawValue)) }
                    let suggestion = suggestions?.closest(to: predecessor.rawValue, excluding: source.id.rawValue)
                    let hint = suggestion.map { " (did you mean \(MessageQuoting.quoted($0))?)" } ?? ""
                    report("unknown command \(MessageQuoting.quoted(predecessor))\(hint)")
                } else if source.dependencies.contains(predecessor) {
                    report(
                        "\(MessageQuoting.quoted(predecessor)) is also a dependency; keep it in \"dependencies\" if "
                            + "\(MessageQuoting.quoted(source.id)) needs it to succeed, or only in \"after\" if it runs after it whatever its outcome"
                    )
                }
            }
        }
        return problems
    }

    /// The issue in the manifest's terms; `nil` for an invalid id, which the decoder has reported
    /// already where it stands (the same rule, ``CommandIDRule``).
    private static func problem(for issue: PlanIssue, sources: [CommandSource], positions: [CommandID: Int]) -> ManifestProblem? {
        switch issue {
        case .invalidID:
            return nil
        case .duplicateID(let id, let first, let duplicate):
            let source = sources[duplicate]
            return ManifestProblem(
                line: source.idLocation.line, column: source.idLocation.column, path: source.path + ".id",
                message: "duplicate id \(MessageQuoting.quoted(id)), already used by commands[\(sources[first].manifestIndex)]")
        case .selfDependency(let id, let command, let dependency):
            let source = sources[command]
            let location = source.dependencyLocations[dependency]
            return ManifestProblem(
                line: location.line, column: location.column,
                path: "\(source.path).dependencies[\(source.dependencyIndexes[dependency])]",
                message: "\(MessageQuoting.quoted(id)) cannot depend on itself")
        case .unknownDependency(_, let command, let missing, let dependency, let suggestion):
            let source = sources[command]
            let location = source.dependencyLocations[dependency]
            let hint = suggestion.map { " (did you mean \(MessageQuoting.quoted($0))?)" } ?? ""
            return ManifestProblem(
                line: location.line, column: location.column,
                path: "\(source.path).dependencies[\(source.dependencyIndexes[dependency])]",
                message: "unknown command \(MessageQuoting.quoted(missing))\(hint)")
        case .duplicateIDAcrossModules, .removedDependency, .unknownDependencyInModule, .cycleAcrossModules:
            // A manifest has no modules and removes nothing; should such an issue come, it is worded as the library words it.
            let source = sources[issue.commandIndex]
            return ManifestProblem(
                line: source.idLocation.line, column: source.idLocation.column, path: source.path, message: issue.description)
        case .cycle(let path, let command):
            let source = sources[command]
            let written = path.map { MessageQuoting.escaped($0.rawValue) }.joined(separator: " -> ")
            // The steps that are `after` edges: the command runs after the next, and does not depend on it.
            let ordered = zip(path, path.dropFirst()).filter { step, next in
                guard let position = positions[step] else { return false }
                return !sources[position].dependencies.contains(next) && sources[position].after.contains(next)
            }
            guard !ordered.isEmpty else {
                return ManifestProblem(
                    line: source.dependenciesLocation.line, column: source.dependenciesLocation.column,
                    path: source.path + ".dependencies", message: "dependency cycle: " + written)
            }
            let startsOrdered = ordered[0].0 == path[0]
            let location = startsOrdered ? source.afterLocation : source.dependenciesLocation
            let edges = ordered.map { "\(MessageQuoting.quoted($0.0)) runs after \(MessageQuoting.quoted($0.1))" }.joined(separator: ", ")
            return ManifestProblem(
                line: location.line, column: location.column, path: source.path + (startsOrdered ? ".after" : ".dependencies"),
                message: "cycle through \"after\": \(written) (\(edges); an after edge orders as a dependency does)")
        }
    }
}
