import Testing

@testable import StartupManifest

/// Glob matching of `"watch"` paths: `*` within a name, `**` across folders, `?`, classes, escapes, and a pattern
/// that names a folder matching what is under it.
@Suite struct WatchPatternTests {
    private func matches(_ pattern: String, _ path: String) throws -> Bool {
        try WatchPattern(pattern).matches(WatchPath(path))
    }

    @Test(arguments: [
        ("src/app.py", "src/app.py"), ("src", "src/app.py"), ("src", "src/lib/deep/x.c"), ("src/*.py", "src/app.py"),
        ("src/**/*.py", "src/app.py"), ("src/**/*.py", "src/a/b/c/app.py"), ("**/*.py", "app.py"), ("**/*.py", "x/y/app.py"),
        ("**", "anything/at/all"), (".", "README.md"), ("src/?pp.py", "src/app.py"), ("src/[a-c]pp.py", "src/bpp.py"),
        ("src/[!x]pp.py", "src/app.py"), ("src/[^x]pp.py", "src/app.py"), (#"src/\*.py"#, "src/*.py"), ("*.py", ".hidden.py"),
        ("src/*", "src/lib/x.py"), ("src/**", "src"), ("src/*.p?", "src/app.py"), ("a/**/b/**/c", "a/x/b/y/z/c"),
        ("src/é?.txt", "src/éü.txt"), ("src/[à-ü].txt", "src/é.txt"), ("src/*a*b*c", "src/xxaxxbxxc"), ("[]]x", "]x"),
    ])
    func matches_whatItShould(pattern: String, path: String) throws {
        #expect(try matches(pattern, path), "\(pattern) should match \(path)")
    }

    @Test(arguments: [
        ("src/app.py", "src/app.pyc"), ("src/*.py", "src/lib/app.py"), ("src/*.py", "app.py"), ("src/**/*.py", "docs/a.py"),
        ("src/**/*.py", "src/app.pyc"), ("src/?pp.py", "src/pp.py"), ("src/[a-c]pp.py", "src/dpp.py"), ("src/[!a]pp.py", "src/app.py"),
        (#"src/\*.py"#, "src/a.py"), ("src", "srcs/app.py"), ("src", "app/src"), ("*.py", "src/app.py"), ("a/**/b/**/c", "a/x/b/y"),
        ("src/*a*b*c", "src/xxaxxbxxcx"), ("src/é?.txt", "src/é.txt"),
    ])
    func doesNotMatch_whatItShouldNot(pattern: String, path: String) throws {
        #expect(try !matches(pattern, path), "\(pattern) should not match \(path)")
    }

    @Test func couldMatchUnder_prunesFoldersThatCannotHoldAMatch() throws {
        let direct = try WatchPattern("src/*.py")
        #expect(direct.couldMatch(under: WatchPath(".")))
        #expect(direct.couldMatch(under: WatchPath("src")))
        #expect(!direct.couldMatch(under: WatchPath("src/lib")))
        #expect(!direct.couldMatch(under: WatchPath("docs")))
        let deep = try WatchPattern("src/**/*.py")
        #expect(deep.couldMatch(under: WatchPath("src/a/b")))
        #expect(!deep.couldMatch(under: WatchPath("docs/a")))
        #expect(try WatchPattern("src").couldMatch(under: WatchPath("src/lib/deep")))
    }

    @Test func anExclude_keepsItsBang_andTheNormalizedText() throws {
        let pattern = try WatchPattern("!./src//**/test_*")
        #expect(pattern.isExclude && pattern.text == "src/**/test_*" && pattern.written == "!src/**/test_*")
        #expect(pattern.matches(WatchPath("src/a/test_app.py")))
    }

    @Test func namesNeedNotBeUTF8() throws {
        let path = WatchPath(names: [Array("src".utf8), [0x66, 0xFF, 0x2E, 0x70, 0x79]])
        #expect(try WatchPattern("src/*.py").matches(path))
        #expect(try WatchPattern("src/f?.py").matches(path))
    }

    @Test func neverWatchedFolders_areRecognized() {
        #expect(WatchPath(".git/index").isNeverWatched)
        #expect(WatchPath("./.startup/last-run.json").isNeverWatched)
        #expect(!WatchPath("src/.git-keep").isNeverWatched)
        #expect(WatchPath("vendor/lib/.git/HEAD").isNeverWatched, "a nested repository's too")
        #expect(WatchPath("services/api/.startup/last-run.json").isNeverWatched, "another manifest's too")
        #expect(throws: WatchPatternError.self) { try WatchPattern("vendor/.git/**") }
    }
}
