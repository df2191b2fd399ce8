import StartupKit
import Testing

@testable import StartupManifest

/// The per-command `"budget"` key: read like the other durations, with their precise messages.
@Suite struct ManifestBudgetTests {
    @Test func decode_readsBudget() throws {
        let manifest = try Manifest.decode(
            Array(
                """
                {"version": 1, "commands": [{"id": "a", "run": "true", "budget": "250ms"}, {"id": "b", "budget": "1.5s"}, {"id": "c"}]}
                """.utf8))
        #expect(manifest.commands.map(\.budget) == [.milliseconds(250), .milliseconds(1_500), nil])
    }

    @Test func decode_badBudgets_areReportedLikeOtherDurations() {
        do {
            _ = try Manifest.decode(
                Array(
                    """
                    {"version": 1, "commands": [
                      {"id": "a", "budget": 5}, {"id": "b", "budget": "5"}, {"id": "c", "budget": "0ms"},
                      {"id": "d", "budget": true}, {"id": "e", "limit": "1s"}
                    ]}
                    """.utf8))
            Issue.record("bad budgets were accepted")
        } catch {
            #expect(
                error.problems.map(\.description) == [
                    #"commands[0] ("a").budget: a duration needs a unit: found the bare number 5; write "5ms" or "5s""#,
                    #"commands[1] ("b").budget: invalid duration "5": write a non-negative number with a unit, ms, s, m or h, such as "250ms" or "1.5s""#,
                    #"commands[2] ("c").budget: a budget must be longer than zero"#,
                    #"commands[3] ("d").budget: expected a duration such as "250ms", found a boolean"#,
                    #"commands[4] ("e").limit: unknown key "limit" (did you mean "budget"?); allowed keys: id, summary, dependencies, after, run, estimate, budget, timeout, retries, optional, onDemand, priority, env, envFile, cwd, stop, stopTimeout, ready, restart, alive, watch"#,
                ])
        }
    }
}
