import StartupKit
import StartupManifest

/// Turns a manifest's command lines into process specs. The environment every command starts from
/// and each working directory are worked out once per manifest, not once per command.
///
/// A command's environment, lowest first: `startup`'s own, the defaults' env files in order, the command's env files
/// in order, `defaults.env`, the command's `env`.
struct ProcessSpecMaker {
    /// The CLI's environment with the defaults' env files and `defaults.env` applied, without a process token:
    /// shared by every command's process.
    private let baseEnvironment: SharedEnvironment
    /// `defaults.env`, which wins over a command's own env files.
    private let defaultsEnvironment: [String: String]
    /// The variables of each command's own env files.
    private let commandFileVariables: [CommandID: [String: String]]
    /// The folder relative `cwd` values are relative to.
    private let manifestDirectory: String
    /// The directory of commands without a `cwd` of their own.
    private let defaultDirectory: String
    /// This process's working directory: children start there without a chdir.
    private let currentDirectory: String
    /// Where every command's output goes.
    private let output: OutputDestination
    /// Each `cwd` as given, resolved (`nil` for the current directory).
    private var resolvedDirectories: [String: String?] = [:]

    /// A maker for `manifest`'s commands, whose env files have been read into `environmentFiles`.
    init(
        manifest: Manifest, environment: [String: String], environmentFiles: EnvFileVariables,
        manifestDirectory: String, currentDirectory: String, output: OutputDestination
    ) {
        var base = environment
        base.merge(environmentFiles.defaults) { _, new in new }
        base.merge(manifest.defaults.environment) { _, new in new }
        base[ProcessSpec.processTokenVariable] = nil  // the engine gives each process its own
        baseEnvironment = SharedEnvironment(base)
        defaultsEnvironment = manifest.defaults.environment
        commandFileVariables = environmentFiles.commands
        self.manifestDirectory = manifestDirectory
        defaultDirectory = manifest.defaults.workingDirectory ?? "."
        self.currentDirectory = currentDirectory
        self.output = output
    }

    /// The spec running `line` for `command`: its environment, `STARTUP_COMMAND_ID`, its directory.
    mutating func spec(for command: ManifestCommand, line: String) -> ProcessSpec {
        var own = command.environment
        if let fromFiles = commandFileVariables[command.id] {
            // Above the shared base, below `defaults.env` (which the base holds too) and the command's `env`.
            own = fromFiles.merging(defaultsEnvironment) { _, new in new }.merging(command.environment) { _, new in new }
        }
        if !own.isEmpty { own[ProcessSpec.processTokenVariable] = nil }  // the engine gives each process its own
        own[ProcessSpec.commandIDVariable] = command.id.rawValue
        return ProcessSpec(
            arguments: CommandLineSplitter.plan(for: line).arguments, environment: ChildEnvironment(shared: baseEnvironment, own: own),
            workingDirectory: resolved(command.workingDirectory ?? defaultDirectory), output: output)
    }

    /// The absolute path of `directory`, or `nil` when it is the current directory (no chdir in the
    /// child when it would start there anyway).
    private mutating func resolved(_ directory: String) -> String? {
        if let known = resolvedDirectories[directory] { return known }
        let path =
            directory.hasPrefix("/")
            ? directory : FilePaths.absolute(directory, in: manifestDirectory)
        let resolved = path == currentDirectory ? nil : path
        resolvedDirectories[directory] = resolved
        return resolved
    }
}
