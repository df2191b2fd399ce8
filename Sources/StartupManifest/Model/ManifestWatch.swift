import StartupKit
import StartupSupport

/// What a command watches (`"watch"`): paths or globs relative to the manifest's folder, and how long
/// `startup run` waits after a change for more before it reloads the command.
///
/// Written as a list, `["src/**/*.py", "!src/**/test_*"]`, or as an object, `{"paths": [...], "debounce":
/// "200ms"}`. `*` matches within one name, `**` any number of folders, `?` one character, `[a-z]` one of a
/// class; a leading `!` excludes. A path names a file or a folder (everything under it). A changed file is
/// watched when some path matches it and no exclude does. `.git/`, `.startup/` and `startup run`'s
/// `--log-dir` folder are never watched.
public struct ManifestWatch: Sendable, Hashable {
    /// The debounce when none is written: 200ms.
    public static let defaultDebounce = Duration.milliseconds(200)
    /// The longest debounce a manifest may give: 60s.
    public static let longestDebounce = Duration.seconds(60)

    /// The paths and globs, in the order written, each normalized (`./src/` is `src`); an exclude keeps
    /// its leading `!`.
    public var paths: [String]
    /// How long after a change `startup run` waits for more before it reloads (`"debounce"`); each change
    /// in that time joins the same reload.
    public var debounce: Duration

    /// Creates the watch rules of a command.
    public init(paths: [String], debounce: Duration = defaultDebounce) {
        self.paths = paths
        self.debounce = debounce
    }

    /// One line for `startup plan`: `src/**/*.py, !src/**/test_*, debounce 200ms`.
    public var summary: String {
        (paths.map { MessageQuoting.escaped($0) } + ["debounce \(DurationText.format(debounce))"]).joined(separator: ", ")
    }
}
