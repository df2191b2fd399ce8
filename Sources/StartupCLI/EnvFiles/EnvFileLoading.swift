import StartupKit
import StartupManifest
import StartupSupport

/// Reads the env files of the commands `startup run` is about to start, turning failures into the messages and the
/// exit code the user sees, as ``ManifestLoading`` does for the manifest.
enum EnvFileLoading {
    /// How many bad lines of one file are listed; the rest are counted.
    static let problemsShownPerFile = 20

    /// The variables of every env file `manifest` names; throws the exit code after saying why they cannot be used:
    /// 66 when a file is missing or unreadable, else 65 with `file:line:` for each bad line.
    ///
    /// - Parameters:
    ///   - manifest: The manifest, with only the commands that will run.
    ///   - manifestFile: The manifest's path as given (`-f`), which relative env files are shown from.
    ///   - manifestDirectory: The folder relative env files are read from.
    ///   - console: Where to print.
    static func load(
        for manifest: Manifest, manifestFile: String, manifestDirectory: String, console: Console
    ) throws(ExitCode) -> EnvFileVariables {
        do {
            return try EnvFileVariables(
                reading: manifest, in: manifestDirectory, shownWith: ManifestFolder.prefix(forManifest: manifestFile))
        } catch {
            console.error(lines(error).joined(separator: "\n"))
            throw error.hasUnreadableFile ? .manifestUnreadable : .invalidManifest
        }
    }

    /// The lines that say what is wrong, without the `error: ` each is printed with.
    static func lines(_ error: EnvFileError) -> [String] {
        var lines: [String] = []
        for failure in error.failures {
            switch failure {
            case .unreadable(let file, let command, let reason):
                let owner = command.map { "the envFile of \(MessageQuoting.quoted($0))" } ?? "the envFile of the defaults"
                lines.append("cannot read env file \(MessageQuoting.escaped(file)) (\(owner)): \(reason)")
            case .invalid(let file, let problems):
                let name = MessageQuoting.escaped(file)
                lines += problems.prefix(problemsShownPerFile).map { "\(name):\($0.line): \($0.message)" }
                let more = problems.count - problemsShownPerFile
                if more > 0 { lines.append("\(name): \(more) more bad line\(more == 1 ? "" : "s") not shown") }
            }
        }
        return lines
    }
}
