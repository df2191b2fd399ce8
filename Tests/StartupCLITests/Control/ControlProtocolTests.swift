import StartupKit
import Testing

@testable import StartupCLI

/// The protocol's requests and answers: written and read back the same, and requests a run cannot serve refused
/// with a reason.
@Suite struct ControlProtocolTests {
    static let requests: [ControlRequest] = [
        .hello, .ps, .restart(["api"], cascade: true), .restart(["api", "worker"], cascade: false), .stop(["db"], cascade: true),
        .start(["seed"]), .logs([], lines: nil, follow: false), .logs(["api"], lines: 20, follow: true), .down, .events,
    ]

    @Test(arguments: requests)
    func aRequest_readsBackAsWritten(request: ControlRequest) {
        let line = request.line
        #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"))
        #expect(ControlRequest.parse(Array(line.dropLast().utf8)) == .success(request))
    }

    @Test func aRequest_isWrittenAsTheDocumentsSay() {
        #expect(ControlRequest.restart(["api"], cascade: true).line == #"{"version":1,"op":"restart","ids":["api"],"cascade":true}"# + "\n")
        #expect(ControlRequest.ps.line == #"{"version":1,"op":"ps"}"# + "\n")
    }

    @Test func unknownMembers_areIgnored_andDefaultsFillIn() {
        let parsed = ControlRequest.parse(Array(#"{"op": "stop", "version": 1, "ids": ["api"], "client": "vim"}"#.utf8))
        #expect(parsed == .success(.stop(["api"], cascade: false)))
    }

    static let refused: [(String, String)] = [
        ("", "not JSON"),
        ("{", "not JSON"),
        ("\"ps\"", "expected a JSON object, found a string"),
        (#"{"version": "1", "op": "ps"}"#, "missing \"version\""),
        (#"{"version": 1.0, "op": "ps"}"#, "missing \"version\""),
        (#"{"version": 1}"#, "missing \"op\""),
        (#"{"version": 1, "op": "restart"}"#, "restart needs at least one id"),
        (#"{"version": 1, "op": "start", "ids": "api"}"#, "\"ids\" must be an array of strings"),
        (#"{"version": 1, "op": "start", "ids": [""]}"#, "non-empty strings"),
        (#"{"version": 1, "op": "logs", "lines": -1}"#, "\"lines\" must be a whole number from 0, not -1"),
        (#"{"version": 1, "op": "logs", "follow": 1}"#, "\"follow\" must be true or false"),
        (#"{"version": 1, "op": "kill"}"#, "unknown operation \"kill\""),
    ]

    @Test(arguments: refused)
    func aRequestARunCannotServe_isRefusedWithAReason(text: String, reason: String) {
        guard case .failure(let error) = ControlRequest.parse(Array(text.utf8)) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.exit == 64)
        #expect(error.message.contains(reason), "\(error.message)")
    }

    static let answers: [ControlAnswer] = [
        .hello(pid: 4242, version: 1, manifest: "commands.json"), .line("↻ api restarted: 0.24s"),
        .row(
            ControlRow(
                id: "api", kind: .service, state: .restarting, pid: nil, sinceMs: 12, readyMs: nil, restarts: 2, lastCheck: "a \"quote\"")),
        .row(ControlRow(id: "db", kind: .service, state: .ready, pid: 7, sinceMs: 0, readyMs: 300, restarts: 0, lastCheck: nil)),
        .log(ControlLogLine(id: "api", text: "tab\tand \u{1B}[31mescape")),
        .event(ControlEvent(atMs: 9, id: "api", state: "ready", fields: [ControlEventField("readyMs", .integer(212))])),
        .event(
            ControlEvent(atMs: 10, id: nil, state: "reloadStarted", fields: [ControlEventField("changed", .strings(["a.py", "b.py"]))])),
        .ok(true), .ok(false), .error("unknown command \"apj\"", exit: 64),
    ]

    @Test(arguments: answers)
    func anAnswer_readsBackAsWritten(answer: ControlAnswer) {
        let line = answer.line
        #expect(!line.dropLast().contains("\n"))
        #expect(ControlAnswer.parse(Array(line.dropLast().utf8)) == answer)
    }

    @Test func everyState_isAWordOfTheContract() {
        #expect(
            CommandState.allCases.map(\.rawValue) == [
                "waiting", "starting", "ready", "running", "succeeded", "failed", "skipped", "stopping", "stopped", "restarting", "exited",
            ])
    }

    @Test func unknownIDs_areNamedWithTheClosestKnownOne() {
        let error = ControlSession.unknownIDs(["api", "wrker", "zzz"], known: ["api", "worker", "database"], manifest: "commands.json")
        #expect(
            error?.message
                == "unknown command \"wrker\" in the run of commands.json (did you mean \"worker\"?); unknown command \"zzz\" in the run of commands.json (startup ps lists them)"
        )
        #expect(ControlSession.unknownIDs(["api"], known: ["api"], manifest: "commands.json") == nil)
    }
}
