/// Settings in a manifest's `defaults` object, inherited by every command that does not set its own.
public struct ManifestDefaults: Sendable, Hashable {
    /// The timeout of one attempt (`"timeout": "30s"`).
    public var timeout: Duration?
    /// Retries after a failed attempt (`"retries": 1`).
    public var retries: Int?
    /// Environment variables added for every command (`"env": {"MODE": "dev"}`).
    public var environment: [String: String]
    /// Env files whose variables `startup run` adds for every command, relative to the manifest's folder
    /// (`"envFile": ".env"` or `["base.env", ".env.local"]`), in order, before a command's own files.
    public var environmentFiles: [String]
    /// The working directory, relative to the manifest's folder (`"cwd": "."`).
    public var workingDirectory: String?

    /// Creates defaults; nothing is set unless given.
    public init(
        timeout: Duration? = nil, retries: Int? = nil, environment: [String: String] = [:], environmentFiles: [String] = [],
        workingDirectory: String? = nil
    ) {
        self.timeout = timeout
        self.retries = retries
        self.environment = environment
        self.environmentFiles = environmentFiles
        self.workingDirectory = workingDirectory
    }
}
