import StartupManifest
import Testing

@testable import StartupCLI

/// One command's watch rules: includes, excludes, the folders never watched, and which folders a source watches.
@Suite struct WatchRulesTests {
    private func rules(_ paths: [String]) throws -> WatchRules {
        try WatchRules(ManifestWatch(paths: paths))
    }

    @Test func aPath_isTheCommandsWhenAnIncludeMatchesAndNoExcludeDoes() throws {
        let rules = try rules(["src/**/*.py", "!src/**/test_*", "!src/vendor"])
        #expect(rules.matches(WatchPath("src/app.py")))
        #expect(rules.matches(WatchPath("src/lib/db.py")))
        #expect(!rules.matches(WatchPath("src/lib/test_db.py")))
        #expect(!rules.matches(WatchPath("src/vendor/six.py")), "an excluded folder excludes what is under it")
        #expect(!rules.matches(WatchPath("src/app.js")))
        #expect(!rules.matches(WatchPath("README.md")))
    }

    @Test func gitAndStartupFolders_areNeverTheCommands_evenForEverything() throws {
        let rules = try rules(["**"])
        #expect(rules.matches(WatchPath("src/app.py")))
        #expect(!rules.matches(WatchPath(".git/index")))
        #expect(!rules.matches(WatchPath(".git")))
        #expect(!rules.matches(WatchPath(".startup/last-run.json")))
        #expect(!rules.couldMatch(under: WatchPath(".git/objects")))
    }

    @Test func aFolderRemoved_concernsTheCommandsThatCouldMatchUnderIt_andAnOverflowConcernsEvery() throws {
        let rules = try rules(["src/**/*.py", "!src/generated"])
        #expect(rules.concerns(.folder(WatchPath("src/lib"))))
        #expect(!rules.concerns(.folder(WatchPath("docs"))))
        #expect(!rules.concerns(.folder(WatchPath("src/generated/a"))))
        #expect(!rules.concerns(.path(WatchPath("src/lib"))), "a folder made is not a Python file")
        #expect(rules.concerns(.overflow))
    }

    @Test func theScope_watchesOnlyFoldersThatCouldHoldAMatch_andNeverTheLogFolder() throws {
        let scope = WatchScope(
            rules: [try rules(["src/*.py"]), try rules(["config/**", "!config/secrets"])], excludedPaths: [WatchPath("logs")])
        #expect(scope.shouldWatch(WatchPath(".")))
        #expect(scope.shouldWatch(WatchPath("src")))
        #expect(!scope.shouldWatch(WatchPath("src/lib")), "src/*.py holds nothing in src/lib")
        #expect(scope.shouldWatch(WatchPath("config/deep/er")))
        #expect(!scope.shouldWatch(WatchPath("config/secrets")))
        #expect(!scope.shouldWatch(WatchPath("logs")))
        #expect(!scope.shouldWatch(WatchPath(".git")))
        #expect(scope.isIgnored(WatchPath("logs/api.log")))
        #expect(!scope.isIgnored(WatchPath("logsx/api.log")))
    }
}
