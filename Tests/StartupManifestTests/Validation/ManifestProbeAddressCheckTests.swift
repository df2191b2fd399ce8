import Testing

@testable import StartupManifest

@Suite struct ManifestProbeAddressCheckTests {
    /// The problems of a manifest whose services `a` and `b` have these readiness probes.
    private func problems(_ first: String, _ second: String) -> [String] {
        let json = #"""
            {"version": 1, "commands": [
              {"id": "a", "run": "serve", "ready": \#(first)},
              {"id": "b", "run": "serve", "ready": \#(second)}
            ]}
            """#
        do {
            _ = try Manifest.decode(Array(json.utf8))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test(arguments: [
        (#"{"tcp": "127.0.0.1:5432"}"#, #"{"tcp": "127.0.0.1:5432"}"#),
        (#"{"tcp": "127.0.0.1:5432"}"#, #"{"tcp": "localhost:5432"}"#),
        (#"{"tcp": "[::1]:5432"}"#, #"{"tcp": "LOCALHOST.:5432"}"#),
        (#"{"tcp": "0.0.0.0:5432"}"#, #"{"tcp": "127.0.0.2:5432"}"#),
        (#"{"tcp": "[::ffff:127.0.0.1]:5432"}"#, #"{"http": "http://localhost:5432/health"}"#),
        (#"{"http": "http://127.0.0.1:8080/a"}"#, #"{"http": "http://127.0.0.1:8080/b"}"#),
        (#"{"http": "http://DB.example.test/"}"#, #"{"tcp": "db.example.test:80"}"#),
        (#"{"tcp": "[2001:db8::1]:80"}"#, #"{"tcp": "[2001:0db8:0:0:0:0:0:1]:80"}"#),
    ])
    func twoProbesOfOneAddress_areAProblemOfTheSecond(first: String, second: String) {
        let found = problems(first, second)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains(#"commands[1] ("b").ready."#) == true, "\(found)")
        #expect(found.first?.contains(#"is the address commands[0] ("a") probes"#) == true, "\(found)")
        #expect(found.first?.contains("two services may not probe one address") == true, "\(found)")
    }

    @Test(arguments: [
        (#"{"tcp": "127.0.0.1:5432"}"#, #"{"tcp": "127.0.0.1:5433"}"#),
        (#"{"tcp": "db.example.test:5432"}"#, #"{"tcp": "cache.example.test:5432"}"#),
        (#"{"tcp": "db.example.test:5432"}"#, #"{"tcp": "127.0.0.1:5432"}"#),
        (#"{"tcp": "127.0.0.1:5432"}"#, #"{"exec": "pg_isready -h 127.0.0.1 -p 5432"}"#),
        (#"{"log": "127.0.0.1:5432"}"#, #"{"tcp": "127.0.0.1:5432"}"#),
    ])
    func probesOfDifferentAddresses_orNotOfAnAddress_areFine(first: String, second: String) {
        #expect(problems(first, second) == [])
    }

    @Test func theMessage_namesBothServices_andWhatEachWrote() {
        #expect(
            problems(#"{"tcp": "127.0.0.1:5432"}"#, #"{"http": "http://localhost:5432/"}"#) == [
                #"commands[1] ("b").ready.http: "http://localhost:5432/" is the address commands[0] ("a") probes ("127.0.0.1:5432"): "#
                    + "two services may not probe one address, since one could be reported ready by the other's listener; "
                    + "give each service its own port"
            ])
    }
}
