import StartupKit
import StartupManifest
import StartupSupport

/// Loads the manifest a subcommand names, turning failures into the message and exit code the
/// user sees.
enum ManifestLoading {
    /// The manifest; throws the exit code after printing why it cannot be used.
    static func load(_ path: String, console: Console) throws(ExitCode) -> Manifest {
        do {
            return try Manifest.load(path: path)
        } catch {
            report(error, console: console)
            throw error.code == .unreadable ? .manifestUnreadable : .invalidManifest
        }
    }

    /// The part of `manifest` that `targets` need (``Manifest/selecting(_:)``); throws the usage
    /// exit code after naming every unknown target, with the closest id, on standard error.
    static func select(
        _ targets: [CommandID], from manifest: Manifest, for subcommand: Invocation.Subcommand,
        console: Console
    ) throws(ExitCode) -> Manifest {
        do {
            return try manifest.selecting(targets)
        } catch {
            console.error(error.description, details: "Usage: see startup \(subcommand.rawValue) --help")
            throw .usage
        }
    }

    /// Prints a manifest error to standard error.
    static func report(_ error: ManifestError, console: Console) {
        if error.code == .unreadable {
            console.error(
                "cannot read manifest \(MessageQuoting.escaped(error.file)): \(error.problems.map(\.message).joined(separator: "; "))")
        } else {
            let count = error.problems.count
            console.error(
                "\(MessageQuoting.escaped(error.file)) is not a valid manifest (\(count) problem\(count == 1 ? "" : "s")):",
                details: error.description)
        }
    }

    /// Makes the manifest's plan with `binding`; throws the exit code after printing why not.
    static func plan(_ manifest: Manifest, binding: ManifestBinding, console: Console) throws(ExitCode) -> StartupPlan {
        do {
            return try manifest.makePlan(binding)
        } catch {
            report(error, console: console)
            throw .invalidManifest
        }
    }

    /// A binding in which every command with a `run` line does nothing, for planning and printing.
    static func graphOnly(_ manifest: Manifest) -> ManifestBinding {
        var binding = ManifestBinding()
        for command in manifest.commands where command.run != nil {
            binding.bind(command.id) { _ in }
        }
        return binding
    }
}
