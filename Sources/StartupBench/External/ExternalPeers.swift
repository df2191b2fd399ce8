import Foundation

/// Finds the command-line tools the CLI scenario compares: `startup`, GNU make and ninja.
enum ExternalPeers {
    /// A tool that was found, or why not.
    enum Lookup: Sendable {
        /// The tool's absolute path.
        case found(String)
        /// Why it cannot be used, and how to fix that.
        case missing(String)

        /// Why the tool cannot be used; `nil` if it was found.
        var missingReason: String? {
            guard case .missing(let reason) = self else { return nil }
            return reason
        }
    }

    /// `name` looked up in `PATH`, like a shell would.
    static func inPath(_ name: String, installHint: String) -> Lookup {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return .found(candidate) }
        }
        return .missing("\(name) not installed: \(installHint)")
    }

    /// The `startup` binary: `$STARTUP_BIN`, else `.build/release/startup` in the current directory,
    /// else the `startup` next to this bench's own executable.
    static func startupBinary() -> Lookup {
        let fileManager = FileManager.default
        if let configured = ProcessInfo.processInfo.environment["STARTUP_BIN"], !configured.isEmpty {
            let absolute = absolutePath(configured)
            return fileManager.isExecutableFile(atPath: absolute)
                ? .found(absolute) : .missing("STARTUP_BIN=\(configured) is not an executable file")
        }
        let local = absolutePath(".build/release/startup")
        if fileManager.isExecutableFile(atPath: local) { return .found(local) }
        let sibling = URL(fileURLWithPath: absolutePath(CommandLine.arguments[0]))
            .deletingLastPathComponent().appendingPathComponent("startup").path
        if fileManager.isExecutableFile(atPath: sibling) { return .found(sibling) }
        return .missing("startup binary not found at .build/release/startup: swift build -c release --product startup, or set STARTUP_BIN")
    }

    /// Checks that `startup run` really executes a manifest's commands, in dependency order: it must
    /// create a marker file through a command that depends on another.
    ///
    /// - Returns: `nil` if it works, else why it cannot be compared.
    static func verifyStartup(_ binary: String, in directory: String) -> String? {
        let marker = directory + "/ran"
        let manifest = """
            {"version":1,"commands":[
             {"id":"first","dependencies":[],"run":"true","estimate":"0ms"},
             {"id":"second","dependencies":["first"],"run":"touch \(marker)","estimate":"0ms"}]}

            """
        let file = directory + "/commands.json"
        do {
            try manifest.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            return "cannot write \(file): \(error)"
        }
        let errors = directory + "/stderr.txt"
        let outcome = ProcessRunner.run(binary, ["run", "--file", file, "-j", "2", "--output", "quiet"], stderrPath: errors)
        if let failure = outcome.failure {
            return "\(binary) failed a two-command check (\(failure)): \(tail(of: errors))"
        }
        guard FileManager.default.fileExists(atPath: marker) else {
            return "\(binary) exited 0 but did not run the commands of \(file) (still a placeholder?)"
        }
        return nil
    }

    /// The last line of a text file, for error messages.
    static func tail(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last.map(String.init) ?? "no output on stderr"
    }

    /// `path` made absolute against the current directory.
    private static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
