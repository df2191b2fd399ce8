import StartupKit
import StartupManifest
import StartupReporting
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds, reads and writes run reports for the subcommands, turning failures into the message
/// and exit code the user sees: 66 for a missing or unreadable file, 65 for one that is not a
/// report, as for manifests.
enum ReportFiles {
    /// `.startup/last-run.json` in the manifest's folder (see `ManifestFolder`): where `startup run`
    /// saves its report and `startup plan` looks for it, unless `--report` says otherwise.
    static func defaultPath(forManifest file: String) -> String {
        let folder = ManifestFolder.path(forManifest: file)
        return (folder == "/" ? "" : folder) + "/.startup/last-run.json"
    }

    /// The default report's path as the user would write it: `.startup/last-run.json` for a
    /// manifest given as `commands.json`, `app/.startup/last-run.json` for `app/commands.json`.
    static func displayPath(forManifest file: String) -> String {
        ManifestFolder.prefix(forManifest: file) + ".startup/last-run.json"
    }

    /// A report that must be usable; throws the exit code after printing why it is not.
    static func load(_ path: String, console: Console) throws(ExitCode) -> SavedRun {
        do {
            return try SavedRun.load(path: path)
        } catch {
            report(error, console: console)
            throw error.code == .unreadable ? .manifestUnreadable : .invalidManifest
        }
    }

    /// The last run's report, if there is a usable one: a missing file, or one that is not a regular
    /// file, is no report, and one that cannot be used is reported as a warning and ignored.
    static func lastRun(_ path: String, console: Console) -> SavedRun? {
        // Only a regular file: a device or FIFO given as --report (/dev/stdout) is where the report goes, not one
        // to read (/dev/zero never ends, a FIFO waits for a writer).
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        do {
            return try SavedRun.load(path: path)
        } catch {
            let first = error.problems.first.map { ": \($0)" } ?? ""
            console.warning("ignoring the last run's report \(MessageQuoting.escaped(path))\(first)")
            return nil
        }
    }

    /// Writes text to a file atomically; prints why not and returns `false` on failure.
    ///
    /// - Parameter isWarning: Whether a failure is only a warning (the default report's path).
    static func write(_ text: String, to path: String, what: String, console: Console, isWarning: Bool = false) -> Bool {
        do {
            try AtomicFileWriter.write(text, to: path)
            return true
        } catch {
            let message =
                "cannot write the \(what) to \(MessageQuoting.escaped(path)): \(error.reason)"
                + (error.folder.map { " (making the folder \(MessageQuoting.escaped($0)))" } ?? "")
            if isWarning { console.warning(message) } else { console.error(message) }
            return false
        }
    }

    private static func report(_ error: ReportError, console: Console) {
        if error.code == .unreadable {
            console.error(
                "cannot read report \(MessageQuoting.escaped(error.file)): \(error.problems.map(\.message).joined(separator: "; "))")
        } else {
            let count = error.problems.count
            console.error(
                "\(MessageQuoting.escaped(error.file)) is not a valid run report (\(count) problem\(count == 1 ? "" : "s")):",
                details: error.description)
        }
    }
}
