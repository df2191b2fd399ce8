import StartupReporting
import StartupTestSupport
import Testing

/// Thousands of mutated saved reports per run, with fixed seeds: no crash, and every error says
/// where (`file:line:column:`).
@Suite struct ReportDecoderFuzzTests {
    static let reports = [
        """
        {"status": "succeeded", "wallMs": 12.5, "criticalPath": ["a", "b"], "criticalPathMs": 12, "jobs": 2,
         "simulated": false, "manifest": "commands.json", "wallBudgetMs": null,
         "commands": [
           {"id": "a", "status": "succeeded", "startMs": 0, "endMs": 2, "durationMs": 2, "dependencies": [], "attempts": 1},
           {"id": "b", "status": "failed", "startMs": 2, "endMs": 12, "durationMs": 10, "dependencies": ["a"],
            "slackMs": 0, "critical": true, "optional": false, "detail": "exit status 1", "budgetMs": 5},
           {"id": "c", "status": "skipped", "durationMs": 0, "dependencies": ["a"], "startMs": null, "endMs": null}
         ]}
        """
    ]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func reportDecoder_survivesMutationsAndPlacesEveryError(seed: UInt64) {
        let fuzzer = MutationFuzzer(seeds: Self.reports, fileName: "fuzz.json")
        let findings = fuzzer.run(count: 1_000, seed: seed) { text in
            _ = try SavedRun.decode(Array(text.utf8), file: "fuzz.json")
        }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n\n"))")
    }
}
