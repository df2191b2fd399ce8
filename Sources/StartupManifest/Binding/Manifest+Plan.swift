import StartupKit
import StartupSupport

extension Manifest {
    /// Makes a plan in which every command runs the implementation bound to its id and every
    /// milestone bound to a gate is a gate; commands without `run` and without a binding are
    /// milestones that succeed at once. Each command runs after its `"after"` commands that are in
    /// the manifest and will run; one the manifest lacks (left out by ``selecting(_:)``) is not
    /// waited for.
    ///
    /// - Throws: ``ManifestError`` (`.invalid`) naming every command that has a `run` line but no
    ///   implementation (unbound, or bound to a gate), every gate bound to an on-demand command
    ///   (gates are eager), and every binding whose id is not in the manifest.
    public func makePlan(_ binding: ManifestBinding) throws(ManifestError) -> StartupPlan {
        var problems: [ManifestProblem] = []
        let ids = Set(commands.map(\.id))
        for id in binding.bindings.keys.filter({ !ids.contains($0) }).sorted() {
            let what = if case .gate = binding.bindings[id] { "a gate" } else { "a Swift implementation" }
            problems.append(problem("", "\(what) is bound to \(MessageQuoting.quoted(id)), which the manifest does not have"))
        }
        for (index, command) in commands.enumerated() {
            func path() -> String { "commands[\(index)] (\(MessageQuoting.quoted(command.id)))" }
            switch binding.bindings[command.id] {
            case nil where command.run != nil:
                problems.append(problem(path(), "no Swift implementation is bound to it"))
            case .gate? where command.run != nil:
                problems.append(problem(path(), "bound to a gate, but a gate has no work: leave \"run\" out, or bind an implementation"))
            case .gate? where command.isOnDemand:
                problems.append(problem(path(), "bound to a gate, but gates are eager: leave \"onDemand\" out"))
            default:
                break
            }
        }
        guard problems.isEmpty else { throw ManifestError(code: .invalid, file: "manifest", problems: problems) }
        var builder = StartupPlanBuilder()
        for command in commands {
            let options = command.options(defaults: defaults)
            switch binding.bindings[command.id] {
            case .implementation(let add)?: add(&builder, command.dependencies, command.after, options)
            case .gate?: builder.addGate(command.id, dependsOn: command.dependencies, after: command.after)
            case nil: builder.add(command.id, dependsOn: command.dependencies, after: command.after, options: options) { _ in }
            }
        }
        do {
            return try builder.build()
        } catch {
            // A decoded manifest was checked already; this only happens to manifests built in code.
            throw ManifestError(code: .invalid, file: "manifest", problems: error.issues.map { problem("", $0.description) })
        }
    }

    private func problem(_ path: String, _ message: String) -> ManifestProblem {
        ManifestProblem(line: nil, column: nil, path: path, message: message)
    }
}
