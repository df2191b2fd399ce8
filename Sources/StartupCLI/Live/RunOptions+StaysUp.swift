import StartupManifest

extension RunOptions {
    /// Whether a run of `manifest` with these options stays up once started, and so listens on its control
    /// socket: it holds services, `--keep-running`, or a command after `--` (CI mode).
    func staysUp(_ manifest: Manifest) -> Bool {
        keepRunning || command != nil || manifest.commands.contains(where: \.isService)
    }
}
