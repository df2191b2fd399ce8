import StartupJSON
import StartupKit
import StartupManifest

/// The variables of the env files a manifest names (`"envFile"`), read once before anything starts: what the
/// defaults' files define and what each command's own files define, each list merged in order (a later file wins).
///
/// ``ProcessSpecMaker`` layers them: `startup`'s own environment, the defaults' files, the command's files,
/// `defaults.env`, the command's `env`.
struct EnvFileVariables: Sendable, Hashable {
    /// The variables of `defaults.envFile`.
    var defaults: [String: String] = [:]
    /// The variables of each command's own `envFile`; no entry for a command without one.
    var commands: [CommandID: [String: String]] = [:]

    /// The most an env file may hold: 16 MiB, far more than any environment can pass to a process.
    static let sizeLimit = 16 << 20

    /// No variables: for a manifest that names no env files, or a run that starts no process.
    init() {}

    /// Reads every env file `manifest` names, each file once however many commands name it.
    ///
    /// - Parameters:
    ///   - manifest: The manifest, with only the commands that will run (the targets and what they need).
    ///   - directory: The folder relative paths are relative to: the manifest's (``ManifestFolder``).
    ///   - prefix: What messages put before a relative path, so that it reads as the user would write it from the
    ///     current directory (`app/` for `-f app/commands.json`).
    /// - Throws: ``EnvFileError`` naming every file that is missing, unreadable or has bad lines.
    init(reading manifest: Manifest, in directory: String, shownWith prefix: String) throws(EnvFileError) {
        var read: [String: [String: String]?] = [:]  // By absolute path; `nil` for a file that could not be used.
        var failures: [EnvFileError.Failure] = []
        func variables(of files: [String], namedBy command: CommandID?) -> [String: String] {
            var merged: [String: String] = [:]
            for file in files {
                let path = FilePaths.absolute(file, in: directory)
                let found: [String: String]?
                if let known = read[path] {
                    found = known
                } else {
                    let shown = file.hasPrefix("/") ? file : prefix + file
                    found = Self.read(path, shownAs: shown, namedBy: command, failures: &failures)
                    read[path] = found
                }
                if let found { merged.merge(found) { _, later in later } }
            }
            return merged
        }
        defaults = variables(of: manifest.defaults.environmentFiles, namedBy: nil)
        for command in manifest.commands where !command.environmentFiles.isEmpty {
            commands[command.id] = variables(of: command.environmentFiles, namedBy: command.id)
        }
        guard failures.isEmpty else { throw EnvFileError(failures: failures) }
    }

    /// The variables of the file at `path`, or `nil` after adding why it cannot be used to `failures`.
    private static func read(
        _ path: String, shownAs shown: String, namedBy command: CommandID?, failures: inout [EnvFileError.Failure]
    ) -> [String: String]? {
        let bytes: [UInt8]
        do {
            bytes = try DocumentFile.bytes(atPath: path, kind: "an env file", limit: sizeLimit)
        } catch {
            let reason = error.problems.map(\.message).joined(separator: "; ")
            failures.append(.unreadable(file: shown, namedBy: command, reason: reason.isEmpty ? "cannot be read" : reason))
            return nil
        }
        let (variables, problems) = EnvFileParser.parse(bytes)
        guard problems.isEmpty else {
            failures.append(.invalid(file: shown, problems: problems))
            return nil
        }
        return variables
    }
}
