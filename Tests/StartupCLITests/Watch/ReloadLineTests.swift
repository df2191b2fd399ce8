import StartupKit
import StartupReporting
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

    @Test func theMovesOfACascade_renderAsTheReloadLine_colouredWhenAsked() {
        let build = MoveStep(
            id: "build", began: .seconds(1), ended: .milliseconds(3_100), succeeded: true, endsReady: false, sentence: "build: ran again")
        let api = MoveStep(
            id: "api", began: .milliseconds(3_100), ended: .milliseconds(3_410), succeeded: true, endsReady: true, sentence: "api: ready")
        #expect(
            ReloadLine.render(
                number: 3, batch: ReloadBatch(paths: ["src/app.py"]), wall: .milliseconds(2_410), path: [build, api], failure: nil,
                style: .plain)
                == "⟳ reload 3 (src/app.py): 2.41s, build 2.1s -> api 310ms ready")
        let failed = MoveStep(
            id: "build", began: .zero, ended: .milliseconds(1_100), succeeded: false, endsReady: false,
            sentence: "build: failed after 1.1s: exited with status 2")
        let line = ReloadLine.render(
            number: 4, batch: ReloadBatch(paths: ["src/app.py", "src/db.py"]), wall: .milliseconds(1_200), path: [], failure: failed,
            style: Style(enabled: true))
        #expect(
            line == Style(enabled: true).red("⟳")
                + " reload 4 (src/app.py +1 more): failed after 1.2s: build: failed after 1.1s: exited with status 2; the stack keeps running"
        )
    }

    @Test func anOverflow_andControlCharactersInNames_areShownSafely() {
        #expect(ReloadBatch(paths: [], isOverflow: true).shown == "changes too many to follow")
        #expect(ReloadBatch(paths: ["a.py"], isOverflow: true).shown == "a.py and more")
        #expect(ReloadBatch(paths: ["evil\u{1B}[31m.py"]).shown == #"evil\u001B[31m.py"#)
    }
}
