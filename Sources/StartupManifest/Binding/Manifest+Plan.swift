import StartupKit

extension Manifest {
    /// Makes a plan in which every command runs the implementation bound to its id; commands
    /// without `run` and without a binding are milestones that succeed at once.
    ///
    /// - Throws: ``ManifestError`` (`.invalid`) naming every command that has a `run` line but no
    ///   binding, and every binding whose id is not in the manifest.
    public func makePlan(_ binding: ManifestBinding) throws(ManifestError) -> StartupPlan {
        var problems: [ManifestProblem] = []
        let ids = Set(commands.map(\.id))
        for id in binding.adders.keys.sorted() where !ids.contains(id) {
            problems.append(ManifestProblem(line: nil, column: nil, path: "",
                                            message: "a Swift implementation is bound to \"\(id)\", which the manifest does not have"))
        }
        for (index, command) in commands.enumerated() where command.run != nil && binding.adders[command.id] == nil {
            problems.append(ManifestProblem(line: nil, column: nil, path: "commands[\(index)] (\"\(command.id)\")",
                                            message: "no Swift implementation is bound to it"))
        }
        guard problems.isEmpty else { throw ManifestError(code: .invalid, file: "manifest", problems: problems) }
        var builder = StartupPlanBuilder()
        for command in commands {
            let options = command.options(defaults: defaults)
            if let add = binding.adders[command.id] {
                add(&builder, command.dependencies, options)
            } else {
                builder.add(command.id, dependsOn: command.dependencies, options: options) { _ in }
            }
        }
        do {
            return try builder.build()
        } catch {
            // A decoded manifest was checked already; this only happens to manifests built in code.
            throw ManifestError(code: .invalid, file: "manifest", problems: error.issues.map {
                ManifestProblem(line: nil, column: nil, path: "", message: $0.description)
            })
        }
    }
}
