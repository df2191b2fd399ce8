import StartupKit
import Testing

@testable import StartupManifest

@Suite struct ManifestReadinessTests {
    /// The problems of a manifest with one command `{"id": "db", "run": "serve", "ready": READY}`.
    private func problems(ready: String, run: Bool = true) -> [String] {
        let json =
            #"{"version": 1, "commands": [{"id": "db", "#
            + (run ? #""run": "serve", "# : "") + #""ready": \#(ready)}]}"#
        do {
            _ = try Manifest.decode(Array(json.utf8))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    private func readiness(_ ready: String, defaults: String = "{}", timeout: String? = nil) throws -> ManifestCommand {
        let extra = timeout.map { #", "timeout": "\#($0)""# } ?? ""
        let json = #"{"version": 1, "defaults": \#(defaults), "commands": [{"id": "db", "run": "serve", "ready": \#(ready)\#(extra)}]}"#
        return try Manifest.decode(Array(json.utf8)).commands[0]
    }

    @Test(arguments: [
        (#"{"exec": "pg_isready -p 5433"}"#, ManifestReadiness(probe: .exec("pg_isready -p 5433"))),
        (
            #"{"tcp": "127.0.0.1:5433", "interval": "5ms"}"#,
            ManifestReadiness(probe: .tcp(host: "127.0.0.1", port: 5_433), interval: .milliseconds(5))
        ),
        (#"{"tcp": "[::1]:8080"}"#, ManifestReadiness(probe: .tcp(host: "::1", port: 8_080))),
        (#"{"tcp": "localhost:1"}"#, ManifestReadiness(probe: .tcp(host: "localhost", port: 1))),
        (
            #"{"http": "http://127.0.0.1:8080/health?deep=1", "timeout": "2s"}"#,
            ManifestReadiness(probe: .http(host: "127.0.0.1", port: 8_080, path: "/health?deep=1"), timeout: .seconds(2))
        ),
        (#"{"http": "http://example.test"}"#, ManifestReadiness(probe: .http(host: "example.test", port: 80, path: "/"))),
        (#"{"http": "HTTP://[::1]/"}"#, ManifestReadiness(probe: .http(host: "::1", port: 80, path: "/"))),
        (#"{"log": "listening on"}"#, ManifestReadiness(probe: .log("listening on"))),
        (#"{"after": "500ms"}"#, ManifestReadiness(probe: .after(.milliseconds(500)))),
        (#"{"after": "0s", "timeout": "2s"}"#, ManifestReadiness(probe: .after(.zero), timeout: .seconds(2))),
    ])
    func decode_aGoodProbeOfEachKind_makesTheCommandAService(ready: String, expected: ManifestReadiness) throws {
        let command = try readiness(ready)
        #expect(command.ready == expected)
        #expect(command.isService)
    }

    @Test func effectiveInterval_isTenMillisecondsForNetworkProbes_aHundredForExec_andNoneForLog() {
        #expect(ManifestReadiness(probe: .tcp(host: "h", port: 1)).effectiveInterval == .milliseconds(10))
        #expect(ManifestReadiness(probe: .http(host: "h", port: 1, path: "/")).effectiveInterval == .milliseconds(10))
        #expect(ManifestReadiness(probe: .exec("true")).effectiveInterval == .milliseconds(100))
        #expect(ManifestReadiness(probe: .exec("true"), interval: .seconds(1)).effectiveInterval == .seconds(1))
        #expect(ManifestReadiness(probe: .log("up")).effectiveInterval == nil)
        #expect(ManifestReadiness(probe: .after(.seconds(1))).effectiveInterval == nil)
    }

    @Test func decode_afterProbe_badValues_sayWhatIsWrong() {
        #expect(
            problems(ready: #"{"after": 500}"#) == [
                #"commands[0] ("db").ready.after: a duration needs a unit: found the bare number 500; write "500ms" or "500s""#
            ])
        #expect(
            problems(ready: #"{"after": "1s", "interval": "5ms"}"#)
                == [#"commands[0] ("db").ready.interval: an after probe is never polled; leave "interval" out"#])
        #expect(problems(ready: #"{"after": "-1s"}"#).count == 1)
        #expect(ManifestReadiness(probe: .after(.milliseconds(300))).summary(timeout: .seconds(30)) == "after 300ms, timeout 30s")
    }

    @Test func summary_showsTheProbeItsIntervalAndTimeout_withUserTextEscaped() {
        #expect(
            ManifestReadiness(probe: .tcp(host: "127.0.0.1", port: 5_433)).summary(timeout: .seconds(30))
                == "tcp 127.0.0.1:5433 every 10ms, timeout 30s")
        #expect(
            ManifestReadiness(probe: .http(host: "::1", port: 80, path: "/health")).summary(timeout: .seconds(2))
                == "http http://[::1]:80/health every 10ms, timeout 2s")
        #expect(
            ManifestReadiness(probe: .log("up\u{1B}[31m")).summary(timeout: .milliseconds(500))
                == #"log "up\u001B[31m", timeout 500ms"#)
        #expect(
            ManifestReadiness(probe: .exec("pg_isready"), interval: .milliseconds(250)).summary(timeout: .seconds(5))
                == #"exec "pg_isready" every 250ms, timeout 5s"#)
    }

    @Test func readyTimeout_isTheProbesElseTheCommandsElseTheDefaultsElseThirtySeconds() throws {
        #expect(
            try readiness(#"{"log": "up", "timeout": "1s"}"#, defaults: #"{"timeout": "9s"}"#, timeout: "5s")
                .options(defaults: ManifestDefaults(timeout: .seconds(9))).timeout == .seconds(1))
        #expect(
            try readiness(#"{"log": "up"}"#, timeout: "5s").readyTimeout(defaults: ManifestDefaults(timeout: .seconds(9))) == .seconds(5))
        #expect(try readiness(#"{"log": "up"}"#).readyTimeout(defaults: ManifestDefaults(timeout: .seconds(9))) == .seconds(9))
        let plain = try readiness(#"{"log": "up"}"#)
        #expect(plain.options(defaults: ManifestDefaults()).timeout == .seconds(30))
        #expect(ManifestCommand(id: "job", run: "true").options(defaults: ManifestDefaults()).timeout == nil)
    }

    @Test func decode_serviceWithAStopLine_keepsBoth() throws {
        let json = #"{"version": 1, "commands": [{"id": "db", "run": "serve", "stop": "serve --stop", "ready": {"tcp": "127.0.0.1:1"}}]}"#
        let command = try Manifest.decode(Array(json.utf8)).commands[0]
        #expect(command.stop == "serve --stop")
        #expect(command.ready?.probe == .tcp(host: "127.0.0.1", port: 1))
    }

    @Test(arguments: [
        (#"{}"#, #"commands[0] ("db").ready: missing a probe; give exactly one of "exec", "tcp", "http", "log" or "after""#),
        (
            #"{"interval": "5ms"}"#,
            #"commands[0] ("db").ready: missing a probe; give exactly one of "exec", "tcp", "http", "log" or "after""#
        ),
        (
            #"{"tcp": "h:1", "log": "up"}"#,
            #"commands[0] ("db").ready: more than one probe ("tcp", "log"); give exactly one of "exec", "tcp", "http", "log" or "after""#
        ),
        (#""127.0.0.1:5433""#, #"commands[0] ("db").ready: expected a readiness probe as an object, found a string"#),
        (
            #"{"tcp": "h:1", "port": 1}"#,
            #"commands[0] ("db").ready.port: unknown key "port"; allowed keys: exec, tcp, http, log, after, interval, timeout"#
        ),
        (#"{"tcp": "h:1", "tcp": "h:2"}"#, #"commands[0] ("db").ready.tcp: duplicate key "tcp""#),
        (#"{"tcp": 5433}"#, #"commands[0] ("db").ready.tcp: expected a string, found a number"#),
        (
            #"{"tcp": "localhost"}"#,
            #"commands[0] ("db").ready.tcp: missing port in "localhost"; write "host:port", such as "127.0.0.1:5433" or "[::1]:5433""#
        ),
        (
            #"{"tcp": ":80"}"#,
            #"commands[0] ("db").ready.tcp: missing host in ":80"; write "host:port", such as "127.0.0.1:5433" or "[::1]:5433""#
        ),
        (#"{"tcp": "h:0"}"#, #"commands[0] ("db").ready.tcp: the port must be a whole number from 1 to 65535, found "0" in "h:0""#),
        (
            #"{"tcp": "h:65536"}"#,
            #"commands[0] ("db").ready.tcp: the port must be a whole number from 1 to 65535, found "65536" in "h:65536""#
        ),
        (#"{"tcp": "h:+80"}"#, #"commands[0] ("db").ready.tcp: the port must be a whole number from 1 to 65535, found "+80" in "h:+80""#),
        (
            #"{"tcp": "::1:8080"}"#,
            #"commands[0] ("db").ready.tcp: invalid host in "::1:8080": write an IPv6 address in brackets, such as "[::1]:8080""#
        ),
        (
            #"{"tcp": "[::1:8080"}"#,
            #"commands[0] ("db").ready.tcp: invalid host in "[::1:8080": an IPv6 address needs its closing "]"; write "host:port", such as "127.0.0.1:5433" or "[::1]:5433""#
        ),
        (
            #"{"tcp": "a b\u001B:80"}"#,
            #"commands[0] ("db").ready.tcp: invalid host in "a b\u001B:80": use a name or an IP address; write "host:port", such as "127.0.0.1:5433" or "[::1]:5433""#
        ),
        (
            #"{"http": "https://127.0.0.1/health"}"#,
            #"commands[0] ("db").ready.http: plain HTTP only: "https://127.0.0.1/health" needs TLS; probe its port with "tcp" instead"#
        ),
        (
            #"{"http": "127.0.0.1:8080/health"}"#,
            #"commands[0] ("db").ready.http: expected a URL that starts with "http://", such as "http://127.0.0.1:8080/health", found "127.0.0.1:8080/health""#
        ),
        (
            #"{"http": "http://h:99999/"}"#,
            #"commands[0] ("db").ready.http: the port must be a whole number from 1 to 65535, found "99999" in "http://h:99999/""#
        ),
        (
            #"{"http": "http:///health"}"#,
            #"commands[0] ("db").ready.http: missing host in "http:///health"; write "http://host[:port]/path", such as "http://127.0.0.1:8080/health""#
        ),
        (
            #"{"http": "http://h/a b"}"#,
            #"commands[0] ("db").ready.http: the path of "http://h/a b" must not contain spaces or control characters"#
        ),
        (#"{"log": ""}"#, #"commands[0] ("db").ready.log: empty log text; give the text the service prints once it is ready"#),
        (#"{"log": "a\nb"}"#, #"commands[0] ("db").ready.log: the text "a\nb" spans lines; a log probe matches within one line"#),
        (#"{"exec": " "}"#, #"commands[0] ("db").ready.exec: empty exec line; give a shell line that exits 0 once the service is ready"#),
        (#"{"log": "up", "interval": "5ms"}"#, #"commands[0] ("db").ready.interval: a log probe is never polled; leave "interval" out"#),
        (#"{"tcp": "h:1", "interval": "0ms"}"#, #"commands[0] ("db").ready.interval: an interval must be from 1ms to 60m, found "0ms""#),
        (#"{"tcp": "h:1", "interval": "61m"}"#, #"commands[0] ("db").ready.interval: an interval must be from 1ms to 60m, found "61m""#),
        (
            #"{"tcp": "h:1", "interval": 10}"#,
            #"commands[0] ("db").ready.interval: a duration needs a unit: found the bare number 10; write "10ms" or "10s""#
        ),
        (#"{"tcp": "h:1", "timeout": "0s"}"#, #"commands[0] ("db").ready.timeout: a timeout must be longer than zero"#),
        (
            #"{"tcp": "h:1", "timeout": "9999999m"}"#,
            #"commands[0] ("db").ready.timeout: invalid duration "9999999m": too long; a duration is at most 8760h (365 days)"#
        ),
    ])
    func decode_badReadiness_namesCommandKeyAndValue(ready: String, expected: String) {
        #expect(problems(ready: ready) == [expected])
    }

    @Test func decode_readyWithoutARunLine_isAnError_aMilestoneCannotBeAService() {
        #expect(
            problems(ready: #"{"tcp": "127.0.0.1:5433"}"#, run: false) == [
                #"commands[0] ("db").ready: a service needs a "run" line that starts it; a command without "run" is a milestone"#
            ])
    }

    @Test func decode_healthcheckKey_suggestsReady() {
        let json = #"{"version": 1, "commands": [{"id": "db", "run": "serve", "healthcheck": {"tcp": "h:1"}}]}"#
        do {
            _ = try Manifest.decode(Array(json.utf8))
            Issue.record("decoded a manifest with an unknown key")
        } catch {
            #expect(
                error.problems.map(\.description).first?.hasPrefix(
                    #"commands[0] ("db").healthcheck: unknown key "healthcheck" (did you mean "ready"?)"#) == true)
        }
    }
}
