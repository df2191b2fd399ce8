import StartupKit
import StartupManifest
import StartupReporting
import Testing

@testable import StartupCLI

/// How `startup plan` words a service's restart policy and writes its restart policy and liveness check in JSON, for
/// the policies the end-to-end test of the plan does not write.
@Suite struct PlanRestartAndLivenessTests {
    @Test(arguments: [
        (RestartPolicy(limit: 5, delay: .milliseconds(500)), "on failure, at most 5 times, first after 500ms (doubling, at most 30s)"),
        (RestartPolicy(), "on failure, at most 3 times, first after 1s (doubling, at most 30s)"),
        (RestartPolicy(on: .exit, limit: 1), "on any exit, once, first after 1s"),
        (RestartPolicy(limit: 0), "never (limit 0)"),
        (RestartPolicy(on: .exit, limit: 0, delay: .seconds(5)), "never (limit 0)"),
        (RestartPolicy(limit: 2, delay: .zero), "on failure, at most 2 times, without a delay"),
        (RestartPolicy(limit: 1, delay: .zero), "on failure, once, without a delay"),
        (RestartPolicy(limit: 4, delay: .seconds(20)), "on failure, at most 4 times, first after 20s (doubling, at most 30s)"),
        (RestartPolicy(limit: 4, delay: .seconds(30)), "on failure, at most 4 times, each after 30s"),
        (RestartPolicy(limit: 1_000, delay: .seconds(3_600)), "on failure, at most 1000 times, each after 60m00s"),
    ])
    func restartSummary_saysWhenHowOftenAndHowLongBefore(policy: RestartPolicy, expected: String) {
        #expect(PlanTextRenderer.summary(of: policy) == expected)
    }

    /// Each later restart waits no longer than the summary says.
    @Test(arguments: [Duration.milliseconds(500), .seconds(20), .seconds(30), .seconds(90)])
    func restartSummary_agreesWithThePolicysDelays(delay: Duration) {
        let policy = RestartPolicy(limit: 10, delay: delay)
        let delays = (1...10).map { policy.delay(beforeRestart: $0) }
        let summary = PlanTextRenderer.summary(of: policy)
        if summary.hasSuffix("each after \(DurationText.format(delay))") {
            #expect(Set(delays) == [delay])
        } else {
            #expect(delays.first == delay && delays.last == RestartPolicy.maxDelay && delays.max() == RestartPolicy.maxDelay)
        }
    }

    @Test func servicesJSON_writesRestartAndAlive_orNullForAServiceWithout_andNothingForACommand() throws {
        let manifest = try Manifest.decode(
            Array(
                #"""
                {"version": 1, "commands": [
                  {"id": "db", "run": "postgres", "ready": {"tcp": "127.0.0.1:5433"},
                   "restart": {"limit": 0, "delay": "0s"}, "alive": {"tcp": "[::1]:5433", "interval": "250ms", "failures": 1000}},
                  {"id": "api", "run": "serve", "ready": {"after": "1s"}, "restart": {"on": "exit"}, "alive": {"exec": "pgrep \"serve\""}},
                  {"id": "cache", "run": "redis", "ready": {"log": "up"}},
                  {"id": "smoke", "run": "true"}
                ]}
                """#.utf8))
        let plan = JSONOutput.object([
            ("commands", .array(["db", "api", "cache", "smoke"].map { JSONOutput.object([("id", .string($0))]) }))
        ])
        let annotated = PlanServicesJSON.annotate(plan, manifest: manifest).text()
        let expected = [
            #"{"id":"db","service":true,"ready":{"tcp":"127.0.0.1:5433","intervalMs":10,"timeoutMs":30000},"#
                + #""restart":{"on":"failure","limit":0,"delayMs":0},"alive":{"tcp":"[::1]:5433","intervalMs":250,"failures":1000}}"#,
            #"{"id":"api","service":true,"ready":{"after":"1s","intervalMs":null,"timeoutMs":30000},"#
                + #""restart":{"on":"exit","limit":3,"delayMs":1000},"alive":{"exec":"pgrep \"serve\"","intervalMs":5000,"failures":3}}"#,
            #"{"id":"cache","service":true,"ready":{"log":"up","intervalMs":null,"timeoutMs":30000},"restart":null,"alive":null}"#,
            #"{"id":"smoke","service":false}"#,
        ]
        #expect(annotated == #"{"commands":["# + expected.joined(separator: ",") + "]}")
    }
}
