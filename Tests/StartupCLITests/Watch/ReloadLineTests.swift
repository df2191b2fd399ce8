import StartupKit
import Testing

@testable import StartupCLI

/// The reload line: what changed, the wall time, the critical path with `ready` after a service, and the failure form.
@Suite struct ReloadLineTests {
    @Test func aReload_saysWhatChangedItsWallTimeAndItsCriticalPath() {
        let line = ReloadLine(
            number: 3, batch: ReloadBatch(paths: ["src/app.py"]), wallTime: .milliseconds(2_410),
            outcome: .succeeded(criticalPath: [
                .init(id: "build", duration: .milliseconds(2_100), isService: false),
                .init(id: "api", duration: .milliseconds(310), isService: true),
            ]))
        #expect(line.text == "⟳ reload 3 (src/app.py): 2.41s, build 2.1s -> api 310ms ready")
    }

    @Test func severalPaths_showTheFirstAndHowManyMore() {
        let batch = ReloadBatch(paths: ["src/app.py", "src/db.py", "src/app.py", "src/x.py"])
        #expect(batch.paths == ["src/app.py", "src/db.py", "src/x.py"])
        let line = ReloadLine(
            number: 1, batch: batch, wallTime: .milliseconds(310),
            outcome: .succeeded(criticalPath: [.init(id: "api", duration: .milliseconds(310), isService: true)]))
        #expect(line.text == "⟳ reload 1 (src/app.py +2 more): 310ms, api 310ms ready")
    }

    @Test func aFailedReload_saysWhyAndThatTheStackKeepsRunning() {
        let line = ReloadLine(
            number: 4, batch: ReloadBatch(paths: ["src/app.py"]), wallTime: .milliseconds(1_200),
            outcome: .failed(reason: "build exited with status 2"))
        #expect(line.text == "⟳ reload 4 (src/app.py): failed after 1.2s: build exited with status 2; the stack keeps running")
    }

    @Test func anOverflow_andControlCharactersInNames_areShownSafely() {
        #expect(ReloadBatch(paths: [], isOverflow: true).shown == "changes too many to follow")
        #expect(ReloadBatch(paths: ["a.py"], isOverflow: true).shown == "a.py and more")
        #expect(ReloadBatch(paths: ["evil\u{1B}[31m.py"]).shown == #"evil\u001B[31m.py"#)
    }
}
