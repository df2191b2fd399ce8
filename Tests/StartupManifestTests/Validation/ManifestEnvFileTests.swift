import StartupKit
import Testing

@testable import StartupManifest

/// `"envFile"` in `defaults` and on a command: one path or an array of them, kept in order; every bad value named
/// with its command, key and value.
@Suite struct ManifestEnvFileTests {
    private func problems(_ json: String) -> [String] {
        do {
            _ = try Manifest.decode(Array(json.utf8))
            return []
        } catch {
            #expect(error.code == .invalid)
            return error.problems.map { "\($0.path): \($0.message)" }
        }
    }

    @Test func decode_readsAPathOrAnArrayOfPaths_inOrder() throws {
        let manifest = try Manifest.decode(
            Array(
                """
                {"version": 1, "defaults": {"envFile": ["base.env", ".env.local"]}, "commands": [
                  {"id": "api", "envFile": ".env"}, {"id": "web", "envFile": ["z.env", "a.env", "z.env"]},
                  {"id": "none", "envFile": []}, {"id": "plain"}
                ]}
                """.utf8))
        #expect(manifest.defaults.environmentFiles == ["base.env", ".env.local"])
        #expect(manifest.commands.map(\.environmentFiles) == [[".env"], ["z.env", "a.env", "z.env"], [], []])
        #expect(try Manifest.decode(Array(#"{"version": 1, "commands": []}"#.utf8)).defaults.environmentFiles == [])
    }

    @Test func decode_everyBadValue_namesTheCommandTheKeyAndTheValue() {
        let found = problems(
            """
            {"version": 1, "defaults": {"envFile": 1}, "commands": [
              {"id": "a", "envFile": ""},
              {"id": "b", "envFile": true},
              {"id": "c", "envFile": {"path": ".env"}},
              {"id": "api", "envFile": [".env", "", 7, null, ["x"], "ok\\u0000.env"]},
              {"id": "d", "envFile": null}
            ]}
            """)
        #expect(
            found == [
                #"defaults.envFile: expected a file name or an array of file names, found the number 1"#,
                #"commands[0] ("a").envFile: "" is not a file name; name an env file such as ".env""#,
                #"commands[1] ("b").envFile: expected a file name or an array of file names, found a boolean"#,
                #"commands[2] ("c").envFile: expected a file name or an array of file names, found an object"#,
                #"commands[3] ("api").envFile[1]: "" is not a file name; name an env file such as ".env""#,
                #"commands[3] ("api").envFile[2]: expected a file name, found the number 7"#,
                #"commands[3] ("api").envFile[3]: expected a file name, found null"#,
                #"commands[3] ("api").envFile[4]: expected a file name, found an array"#,
                #"commands[3] ("api").envFile[5]: the file name "ok\u0000.env" contains a NUL character"#,
                #"commands[4] ("d").envFile: expected a file name or an array of file names, found null"#,
            ])
    }

    @Test func decode_aMistypedKey_suggestsEnvFile_inDefaultsAndCommands() {
        for key in ["env_file", "envFiles", "dotenv", "envfile", "envFle"] {
            let found = problems(#"{"version": 1, "defaults": {"\#(key)": ".env"}, "commands": [{"id": "a", "\#(key)": ".env"}]}"#)
            #expect(found.count == 2)
            #expect(found.allSatisfy { $0.contains(#"(did you mean "envFile"?)"#) }, "\(key): \(found)")
        }
    }

    @Test func decode_aRepeatedEnvFile_isReported_andTheFirstIsRead() throws {
        #expect(
            problems(#"{"version": 1, "commands": [{"id": "a", "envFile": "1.env", "envFile": "2.env"}]}"#)
                == [#"commands[0] ("a").envFile: duplicate key "envFile""#])
    }

    @Test func selecting_keepsEachCommandsEnvFiles() throws {
        let manifest = try Manifest.decode(
            Array(
                #"{"version": 1, "commands": [{"id": "a", "envFile": "a.env"}, {"id": "b", "dependencies": ["a"], "envFile": "b.env"}]}"#
                    .utf8))
        #expect(try manifest.selecting(["a"]).commands.map(\.environmentFiles) == [["a.env"]])
    }
}
