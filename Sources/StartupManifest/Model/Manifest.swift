import StartupKit

/// A start-up graph described in a `commands.json` file: shell steps for the `startup` CLI, or ids
/// that an app binds to Swift commands with ``ManifestBinding``.
///
/// ```json
/// { "version": 1, "defaults": { "timeout": "30s" },
///   "commands": [ { "id": "configuration", "run": "sleep 0.04", "estimate": "40ms" } ] }
/// ```
public struct Manifest: Sendable, Hashable {
    /// The only manifest version this library reads.
    public static let supportedVersion = 1

    /// The format version; always ``supportedVersion``.
    public var version: Int
    /// Settings every command inherits unless it sets its own.
    public var defaults: ManifestDefaults
    /// The commands, in declaration order.
    public var commands: [ManifestCommand]

    /// Creates a manifest.
    public init(version: Int = Manifest.supportedVersion, defaults: ManifestDefaults = ManifestDefaults(), commands: [ManifestCommand]) {
        self.version = version
        self.defaults = defaults
        self.commands = commands
    }
}
