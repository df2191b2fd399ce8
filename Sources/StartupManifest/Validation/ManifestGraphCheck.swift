import StartupKit

/// Checks a manifest's commands as a graph, with StartupKit's own builder's checks, and words the problems
/// in terms of the manifest: `commands[4] ("database").dependencies[1]: unknown command "confg"`.
enum ManifestGraphCheck {
    /// The graph problems of the commands: duplicate ids, unknown dependencies, self-dependencies,
    /// cycles (invalid ids are the decoder's).
    static func problems(in sources: [CommandSource]) -> [ManifestProblem] {
        StartupPlanBuilder.issues(ids: sources.map(\.id)) { sources[$0].dependencies }
            .compactMap { problem(for: $0, sources: sources) }
    }

    /// The issue in the manifest's terms; `nil` for an invalid id, which the decoder has reported
    /// already where it stands (the same rule, ``CommandIDRule``).
    private static func problem(for issue: PlanIssue, sources: [CommandSource]) -> ManifestProblem? {
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
        case .duplicateIDAcrossModules, .removedDependency:
            // A manifest has no modules and removes nothing; should such an issue come, it is worded as the library words it.
            let source = sources[issue.commandIndex]
            return ManifestProblem(
                line: source.idLocation.line, column: source.idLocation.column, path: source.path, message: issue.description)
        case .cycle(let path, let command):
            let source = sources[command]
            return ManifestProblem(
                line: source.dependenciesLocation.line, column: source.dependenciesLocation.column,
                path: source.path + ".dependencies",
                message: "dependency cycle: " + path.map { MessageQuoting.escaped($0.rawValue) }.joined(separator: " -> "))
        }
    }
}
