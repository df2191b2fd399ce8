import StartupManifest
import StartupTestSupport
import Testing

/// Thousands of mutated manifests per run, with fixed seeds: no crash, and every
/// error says where (`file:line:column:`).
@Suite struct DecoderFuzzTests {
    static let manifests = [
        """
        {
          "version": 1,
          "defaults": { "timeout": "10s", "retries": 1, "env": { "MODE": "dev" }, "envFile": ".env", "cwd": "." },
          "commands": [
            { "id": "configuration", "summary": "Load configuration", "run": "sleep 0.04", "estimate": "40ms", "priority": "high" },
            { "id": "database", "dependencies": ["configuration"], "run": "sleep 0.12", "estimate": "120ms",
              "timeout": "5s", "retries": 1, "budget": "1s", "stop": "true" },
            { "id": "analytics", "dependencies": ["configuration", "database"], "run": "./analytics.sh",
              "optional": true, "onDemand": true, "priority": -3, "env": { "MODE": "fast" }, "envFile": ["a.env", "b.env"], "cwd": "scripts" },
            { "id": "ready", "dependencies": ["analytics"] }
          ]
        }
        """,
        #"{"version": 1, "commands": [{"id": "a", "estimate": "1.5s"}, {"id": "b", "dependencies": ["a"], "priority": 1000000}]}"#,
    ]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func manifestDecoder_survivesMutationsAndPlacesEveryError(seed: UInt64) {
        let fuzzer = MutationFuzzer(seeds: Self.manifests, fileName: "fuzz.json")
        let findings = fuzzer.run(count: 1_000, seed: seed) { text in
            _ = try Manifest.decode(Array(text.utf8), file: "fuzz.json")
        }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n\n"))")
    }

    @Test func fuzzer_flagsAnErrorWithoutAPlace() {
        struct Unplaced: Error, CustomStringConvertible { var description: String { "fuzz.json: something broke" } }
        let findings = MutationFuzzer(seeds: ["{}"], fileName: "fuzz.json").run(count: 3, seed: 1) { _ in throw Unplaced() }
        #expect(findings.count == 3)
    }
}
