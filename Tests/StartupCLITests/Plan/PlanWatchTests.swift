import StartupKit
import StartupManifest
import StartupReporting
import Testing

@testable import StartupCLI

/// What `startup plan` says of a command's `"watch"`, in its text and its JSON; a command without one gains nothing.
@Suite struct PlanWatchTests {
    private let manifest: Manifest

    init() throws {
        manifest = try Manifest.decode(
            Array(
                #"""
                {"version": 1, "commands": [
                  {"id": "build", "run": "make", "stop": "make clean", "watch": ["./src/**/*.c", "!src/**/test_*"]},
                  {"id": "api", "dependencies": ["build"], "run": "./app", "ready": {"tcp": "127.0.0.1:8080"},
                   "watch": {"paths": ["config"], "debounce": "1.5s"}},
                  {"id": "smoke", "run": "true"}
                ]}
                """#.utf8))
    }

    @Test func theJSON_givesEachWatchingCommandItsPathsAndDebounce() {
        let plan = JSONOutput.object([
            ("commands", .array(["build", "api", "smoke"].map { JSONOutput.object([("id", .string($0))]) }))
        ])
        let annotated = PlanServicesJSON.annotate(plan, manifest: manifest).text()
        let expected = [
            #"{"id":"build","service":false,"stopTimeoutMs":10000,"watch":{"paths":["src/**/*.c","!src/**/test_*"],"debounceMs":200}}"#,
            #"{"id":"api","service":true,"ready":{"tcp":"127.0.0.1:8080","intervalMs":10,"timeoutMs":30000},"restart":null,"alive":null,"#
                + #""watch":{"paths":["config"],"debounceMs":1500}}"#,
            #"{"id":"smoke","service":false}"#,
        ]
        #expect(annotated == #"{"commands":["# + expected.joined(separator: ",") + "]}")
    }

    @Test func theText_endsEachWatchingCommandsLineWithWhatItWatches() throws {
        let plan = try manifest.makePlan(ManifestLoading.graphOnly(manifest))
        let lines = PlanTextRenderer(plan: plan, manifest: manifest, jobs: nil, file: "commands.json").render()
            .split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("  * build") && $0.hasSuffix("stop line: stopTimeout 10s  watch: src/**/*.c, !src/**/test_*, debounce 200ms")
            })
        #expect(lines.contains { $0.hasPrefix("  * api") && $0.hasSuffix("  watch: config, debounce 1.5s") })
        #expect(lines.contains { $0.contains("smoke") && !$0.contains("watch") })
    }
}
