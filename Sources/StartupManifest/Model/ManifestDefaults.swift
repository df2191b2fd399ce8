/// Settings in a manifest's `defaults` object, inherited by every command that does not set its own.
public struct ManifestDefaults: Sendable, Hashable {
    /// The timeout of one attempt (`"timeout": "30s"`).
    public var timeout: Duration?
    /// Retries after a failed attempt (`"retries": 1`).
    public var retries: Int?
    /// Environment variables added for every command (`"env": {"MODE": "dev"}`).
    public var environment: [String: String]
    /// The working directory, relative to the manifest's folder (`"cwd": "."`).
    public var workingDirectory: String?

    /// Creates defaults; nothing is set unless given.
    public init(timeout: Duration? = nil, retries: Int? = nil, environment: [String: String] = [:], workingDirectory: String? = nil) {
        self.timeout = timeout
        self.retries = retries
        self.environment = environment
        self.workingDirectory = workingDirectory
    }
}
