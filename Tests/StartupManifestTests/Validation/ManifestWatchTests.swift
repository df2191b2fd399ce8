import StartupKit
import StartupTestSupport
import Testing

@testable import StartupManifest

/// `"watch"`: the list and object forms, their defaults and normalization, and each bad value with its message and
/// where it is.
@Suite struct ManifestWatchTests {
    /// The command `{"id": "api", "run": "serve", MEMBERS}` (without `run` when `hasRun` is false).
    private func json(_ members: String, hasRun: Bool = true) -> String {
        #"{"version": 1, "commands": [{"id": "api", \#(hasRun ? #""run": "serve", "# : "")\#(members)}]}"#
    }

    private func watch(_ written: String) throws -> ManifestWatch? {
        try Manifest.decode(Array(json(#""watch": \#(written)"#).utf8)).commands[0].watch
    }

    /// Expects exactly one problem in the manifest of `members`, written with a `^` where it is: `message` (after
    /// its path), on line 1 at the column of the `^`.
    private func expectOneProblem(
        _ members: String, _ message: String, hasRun: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let marker = "\u{0}"
        let text = json(members.replacing("^", with: marker), hasRun: hasRun)
        let column = text.utf8.firstRange(of: marker.utf8).map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) + 1 }
        var found: [ManifestProblem] = []
        do {
            _ = try Manifest.decode(Array(json(members.replacing("^", with: ""), hasRun: hasRun).utf8))
        } catch {
            found = error.problems
        }
        #expect(found.map(\.description) == [message], sourceLocation: sourceLocation)
        #expect(found.map(\.column) == [column], sourceLocation: sourceLocation)
    }

    @Test func aList_watchesItsPaths_withTheDefaultDebounce() throws {
        let watch = try #require(try watch(#"["src/**/*.py", "!src/**/test_*", "package.json"]"#))
        #expect(watch == ManifestWatch(paths: ["src/**/*.py", "!src/**/test_*", "package.json"], debounce: .milliseconds(200)))
        #expect(watch.summary == "src/**/*.py, !src/**/test_*, package.json, debounce 200ms")
        #expect(try self.watch(#"["."]"#)?.paths == ["."])
        #expect(try Manifest.decode(Array(json(#""retries": 1"#).utf8)).commands[0].watch == nil)
    }

    @Test func anObject_takesPathsAndADebounce() throws {
        #expect(try watch(#"{"paths": ["src"], "debounce": "1.5s"}"#) == ManifestWatch(paths: ["src"], debounce: .milliseconds(1_500)))
        #expect(try watch(#"{"paths": ["src"]}"#)?.debounce == ManifestWatch.defaultDebounce)
        #expect(try watch(#"{"paths": ["src"], "debounce": "0ms"}"#)?.debounce == .zero)
        #expect(try watch(#"{"paths": ["src"], "debounce": "60s"}"#)?.debounce == .seconds(60))
    }

    @Test(arguments: [
        ("./src//lib/", "src/lib"), ("src/../app/*.py", "app/*.py"), ("!./vendor/", "!vendor"), ("./", "."),
        (#"docs/\*.md"#, #"docs/\*.md"#), ("src/[a-c]?.py", "src/[a-c]?.py"),
    ])
    func paths_areNormalized(written: String, kept: String) throws {
        let paths = written.hasPrefix("!") ? ["src", written] : [written]
        #expect(try watch(#"[\#(paths.map { "\"\($0.replacing("\\", with: "\\\\"))\"" }.joined(separator: ", "))]"#)?.paths.last == kept)
    }

    @Test(arguments: [
        (
            #"^"src""#,
            #"commands[0] ("api").watch: expected a list of paths or globs, or {"paths": [...], "debounce": "200ms"}, found "src""#
        ),
        (
            #"^[]"#,
            #"commands[0] ("api").watch: an empty list watches nothing; name paths or globs such as "src/**/*.py", or leave "watch" out"#
        ),
        (
            #"[^"/etc/app.conf"]"#,
            #"commands[0] ("api").watch[0]: "/etc/app.conf" is absolute; watched paths are relative to the manifest's folder"#
        ),
        (
            #"["src", ^"../lib/**"]"#,
            #"commands[0] ("api").watch[1]: "../lib/**" leaves the manifest's folder; a watched path must be inside it"#
        ),
        (
            #"[^"src/../../x"]"#,
            #"commands[0] ("api").watch[0]: "src/../../x" leaves the manifest's folder; a watched path must be inside it"#
        ),
        (
            #"^["!src/**/test_*"]"#,
            #"commands[0] ("api").watch: only excludes ("!..."), so nothing is watched; add a path or glob to watch, such as "src/**", before them"#
        ),
        (#"[^"src/[ab"]"#, #"commands[0] ("api").watch[0]: "src/[ab" has a "[" without its "]"; write "\\[" in JSON for a literal "[""#),
        (
            #"[^"src/a**"]"#,
            #"commands[0] ("api").watch[0]: "src/a**" has "**" inside a name; "**" stands alone between slashes, as in "src/**/*.py""#
        ),
        (
            #"[^"src/[z-a]"]"#,
            #"commands[0] ("api").watch[0]: "src/[z-a]" has a class range that runs backwards; write the lower end first"#
        ),
        (
            #"[^"src\\"]"#,
            #"commands[0] ("api").watch[0]: "src\\" ends a name with a backslash that escapes nothing; write "\\\\" in JSON for a literal backslash"#
        ),
        (#"[^""]"#, #"commands[0] ("api").watch[0]: "" is empty; name a file, a folder or a glob such as "src/**/*.py""#),
        (
            #"["src", ^"!"]"#,
            #"commands[0] ("api").watch[1]: "!" excludes nothing; write the path after the "!", as in "!src/**/test_*""#
        ),
        (#"[^".git/HEAD"]"#, #"commands[0] ("api").watch[0]: ".git/HEAD" is under .git/, which is never watched"#),
        (#"[^3]"#, #"commands[0] ("api").watch[0]: expected a path or a glob, found the number 3"#),
        (
            #"{"paths": ["src"], ^"debounse": "1s"}"#,
            #"commands[0] ("api").watch.debounse: unknown key "debounse" (did you mean "debounce"?); allowed keys: paths, debounce"#
        ),
        (#"^{"debounce": "1s"}"#, #"commands[0] ("api").watch: missing "paths"; add "paths": ["src/**"], the paths or globs to watch"#),
        (#"{"paths": ^"src"}"#, #"commands[0] ("api").watch.paths: expected a list of paths or globs, found "src""#),
        (
            #"{"paths": ^[]}"#,
            #"commands[0] ("api").watch.paths: an empty list watches nothing; name paths or globs such as "src/**/*.py", or leave "watch" out"#
        ),
        (
            #"{"paths": ["src"], "debounce": ^"61s"}"#,
            #"commands[0] ("api").watch.debounce: a debounce must be from 0ms to 60s, found "61s""#
        ),
        (
            #"{"paths": ["src"], "debounce": ^200}"#,
            #"commands[0] ("api").watch.debounce: a duration needs a unit: found the bare number 200; write "200ms" or "200s""#
        ),
    ])
    func badValues_sayWhatIsWrongAndWhere(written: String, message: String) {
        expectOneProblem(#""watch": \#(written)"#, message)
    }

    /// The article's example decodes to what it says.
    @Test func theArticlesWatchExample_decodes() throws {
        let text = try RepositoryFiles.text("Sources/StartupManifest/StartupManifest.docc/TheManifest.md")
        let block = try #require(
            text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }.first {
                $0.contains("\"watch\"")
            })
        let command = try Manifest.decode(Array(#"{"version": 1, "commands": [\#(block)]}"#.utf8)).commands[0]
        #expect(command.watch == ManifestWatch(paths: ["src/**/*.py", "!src/**/test_*", "pyproject.toml"], debounce: .milliseconds(300)))
    }

    @Test func aMilestone_hasNothingToReload() {
        expectOneProblem(
            #"^"watch": ["src"]"#,
            #"commands[0] ("api").watch: "watch" reloads the command's "run" line, and it has none; add "run" or leave "watch" out"#,
            hasRun: false)
    }

    @Test func aMistypedKey_suggestsWatch() {
        expectOneProblem(
            #"^"watchPaths": ["src"]"#,
            #"commands[0] ("api").watchPaths: unknown key "watchPaths" (did you mean "watch"?); allowed keys: "#
                + ManifestDecoder.commandKeys.joined(separator: ", "))
    }
}
