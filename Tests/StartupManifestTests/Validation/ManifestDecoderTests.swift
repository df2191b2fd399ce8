import StartupJSON
import StartupKit
import StartupSeededRandom
import Testing

@testable import StartupManifest

@Suite struct ManifestDecoderTests {
    private func problems(_ json: String) -> [String] {
        do {
            _ = try Manifest.decode(Array(json.utf8))
            return []
        } catch {
            #expect(error.code == .invalid)
            return error.problems.map(\.description)
        }
    }

    @Test func decode_readsEveryKey() throws {
        let manifest = try Manifest.decode(
            Array(
                """
                { "version": 1, "defaults": { "timeout": "30s", "retries": 2, "env": {"A": "1"}, "cwd": "sub" },
                  "commands": [
                    { "id": "configuration", "summary": "Load", "run": "sleep 0.04", "estimate": "40ms" },
                    { "id": "database", "dependencies": ["configuration"], "run": "sleep 0.12", "estimate": "1.5s",
                      "timeout": "5s", "retries": 1, "optional": true, "onDemand": true, "priority": "high", "env": {"MODE": "fast"},
                      "cwd": "." },
                    { "id": "ready", "dependencies": ["database"], "priority": -7, "stop": "./undo-ready" }
                  ] }
                """.utf8))
        #expect(manifest.defaults == ManifestDefaults(timeout: .seconds(30), retries: 2, environment: ["A": "1"], workingDirectory: "sub"))
        #expect(manifest.commands.map(\.id) == ["configuration", "database", "ready"])
        let database = manifest.commands[1]
        #expect(
            database
                == ManifestCommand(
                    id: "database", dependencies: ["configuration"], run: "sleep 0.12", estimate: .milliseconds(1_500),
                    timeout: .seconds(5), retries: 1, isOptional: true, isOnDemand: true, priority: .high, environment: ["MODE": "fast"],
                    workingDirectory: "."))
        #expect(manifest.commands[2].run == nil)
        #expect(manifest.commands[2].priority == CommandPriority(-7))
        #expect(manifest.commands[2].stop == "./undo-ready")
        #expect(manifest.commands[0].stop == nil)
        let options = manifest.commands[0].options(defaults: manifest.defaults)
        #expect(options.timeout == .seconds(30) && options.retry.maxRetries == 2 && options.estimate == .milliseconds(40))
        #expect(options.activation == .eager)
        #expect(database.options(defaults: manifest.defaults).activation == .onDemand)
    }

    @Test func decode_onDemandThatIsNotABoolean_namesCommandKeyAndValue_andSuggestsTheKeyForLazy() {
        let found = problems(
            """
            {"version": 1, "commands": [
              {"id": "search-index", "onDemand": "yes"}, {"id": "sync", "onDemand": 1}, {"id": "cache", "lazy": true}
            ]}
            """)
        #expect(
            found == [
                #"commands[0] ("search-index").onDemand: expected true or false, found "yes""#,
                #"commands[1] ("sync").onDemand: expected true or false, found the number 1"#,
                #"commands[2] ("cache").lazy: unknown key "lazy" (did you mean "onDemand"?); allowed keys: id, summary, dependencies, after, run, "#
                    + "estimate, budget, timeout, retries, optional, onDemand, priority, env, envFile, cwd, stop, stopTimeout, ready, restart, alive, watch",
            ])
    }

    @Test func decode_unknownDependency_namesCommandKeyAndSuggestion() {
        let found = problems(
            """
            {"version": 1, "commands": [
              {"id": "configuration"}, {"id": "a"}, {"id": "b"}, {"id": "c"},
              {"id": "database", "dependencies": ["configuration", "confg"]}
            ]}
            """)
        #expect(found == [#"commands[4] ("database").dependencies[1]: unknown command "confg" (did you mean "configuration"?)"#])
    }

    @Test func decode_errorDescriptionCarriesFileLineAndColumn() {
        #expect(throws: ManifestError.self) {
            try Manifest.decode(Array(#"{"version": 1, "commands": [{"id": "a", "dependsOn": ["b"]}]}"#.utf8), file: "app.json")
        }
        do {
            _ = try Manifest.decode(
                Array("{\"version\": 1,\n \"commands\": [{\"id\": \"a\", \"dependsOn\": [\"b\"]}]}".utf8), file: "app.json")
        } catch {
            #expect(
                error.description.hasPrefix(
                    #"app.json:2:27: commands[0] ("a").dependsOn: unknown key "dependsOn" (did you mean "dependencies"?)"#))
        }
    }

    @Test func decode_reportsEveryProblemAtOnceInDocumentOrder() {
        let found = problems(
            """
            {"version": 1, "extra": true, "defaults": {"timeout": 30},
             "commands": [
              {"id": "a", "estimate": "40", "retries": -1, "priority": "urgent"},
              {"id": "b", "dependencies": ["b"], "optional": "yes", "run": "", "stop": " "},
              {"id": "a", "timeout": "0s"},
              {"id": "c", "dependencies": ["d"]}, {"id": "d", "dependencies": ["c"]},
              {"summary": "no id"}, 42, {"id": "has space"}, {"id": "e", "env": {"X": 1}, "cwd": ""}
             ]}
            """)
        #expect(
            found == [
                #"extra: unknown key "extra"; allowed keys: $schema, version, defaults, commands"#,
                #"defaults.timeout: a duration needs a unit: found the bare number 30; write "30ms" or "30s""#,
                #"commands[0] ("a").estimate: invalid duration "40": write a non-negative number with a unit, ms, s, m or h, such as "250ms" or "1.5s""#,
                #"commands[0] ("a").retries: retries must be from 0 to 100, found -1"#,
                #"commands[0] ("a").priority: expected "low", "normal", "high" or a whole number from -1000000 to 1000000, found "urgent""#,
                #"commands[1] ("b").dependencies[0]: "b" cannot depend on itself"#,
                #"commands[1] ("b").optional: expected true or false, found "yes""#,
                #"commands[1] ("b").run: empty run line; leave "run" out to make the command a milestone"#,
                #"commands[1] ("b").stop: empty stop line; leave "stop" out when nothing needs undoing"#,
                #"commands[2] ("a").id: duplicate id "a", already used by commands[0]"#,
                #"commands[2] ("a").timeout: a timeout must be longer than zero"#,
                #"commands[3] ("c").dependencies: dependency cycle: c -> d -> c"#,
                #"commands[5]: missing "id""#,
                #"commands[6]: expected a command as an object, found a number"#,
                #"commands[7] ("has space").id: invalid command id "has space": use 1 to 200 characters without spaces or control characters"#,
                #"commands[8] ("e").env.X: expected a string, found a number"#,
                #"commands[8] ("e").cwd: empty directory; use "." for the manifest's folder"#,
            ])
    }

    @Test(arguments: [
        (#"{"commands": []}"#, #"missing "version"; add "version": 1"#),
        (#"{"version": 2, "commands": []}"#, "version: unsupported version 2; this startup reads version 1"),
        (#"{"version": 1.0, "commands": []}"#, "version: expected a whole number, found the number 1.0"),
        (#"{"version": 1}"#, #"missing "commands"; add "commands": [ ... ]"#),
        (#"{"version": 1, "commands": {}}"#, "commands: expected an array of commands, found an object"),
        (#"[]"#, "expected the manifest as an object, found an array"),
        (#"{"version": 1, "version": 1, "commands": []}"#, #"version: duplicate key "version""#),
    ])
    func decode_rootProblems(json: String, expected: String) {
        #expect(problems(json) == [expected])
    }

    @Test func commandMembers_keepEveryCommandKeyOnce_andNoOther() {
        func member(_ key: String) -> JSONMember {
            JSONMember(key: key, keyLocation: .init(line: 1, column: 1), value: .null, valueLocation: .init(line: 1, column: 1))
        }
        var members = CommandMembers()
        for key in ManifestDecoder.commandKeys {
            #expect(members.keep(member(key)) == .kept, "\(key)")
            #expect(members.keep(member(key)) == .repeated, "\(key)")
        }
        for key in ["", "ID", "depends_on", "dependencies ", "$schema", "version"] {
            #expect(members.keep(member(key)) == .unknown, "\(key)")
        }
    }

    @Test func decode_repeatedAndUnknownKeysOfACommand_areEachReported_andTheFirstValueIsRead() throws {
        let json = """
            {"version": 1, "commands": [
              {"id": "a", "run": "true", "bogus": 1, "run": "false", "id": "b", "estimate": "1s", "estimate": 7}
            ]}
            """
        #expect(
            problems(json) == [
                #"commands[0] ("a").bogus: unknown key "bogus"; allowed keys: id, summary, dependencies, after, run, estimate, budget, timeout, retries, optional, onDemand, priority, env, envFile, cwd, stop, stopTimeout, ready, restart, alive, watch"#,
                #"commands[0] ("a").run: duplicate key "run""#,
                #"commands[0] ("a").id: duplicate key "id""#,
                #"commands[0] ("a").estimate: duplicate key "estimate""#,
            ])
        let valid = try Manifest.decode(Array(#"{"version": 1, "commands": [{"id": "a", "run": "true"}, {"run": "x", "id": "b"}]}"#.utf8))
        #expect(valid.commands.map(\.id) == ["a", "b"] && valid.commands.map(\.run) == ["true", "x"])
    }

    /// Long manifests are decoded on several threads (a run of commands each): the commands and the problems
    /// come out in document order all the same.
    @Test(arguments: [511, 512, 1_000, 4_099]) func decode_aLongManifest_keepsDocumentOrder(count: Int) throws {
        func command(_ index: Int, retries: Int = 1, dependency: String? = nil) -> String {
            let dependencies = dependency.map { #"["\#($0)"]"# } ?? (index > 0 ? #"["c\#(index - 1)"]"# : "[]")
            return #"{"id": "c\#(index)", "dependencies": \#(dependencies), "run": "true", "retries": \#(retries)}"#
        }
        let valid = (0..<count).map { command($0) }
        let manifest = try Manifest.decode(Array(#"{"version": 1, "commands": [\#(valid.joined(separator: ",\n"))]}"#.utf8))
        #expect(manifest.commands.map(\.id.rawValue) == (0..<count).map { "c\($0)" })
        #expect(manifest.commands.dropFirst().enumerated().allSatisfy { $1.dependencies == [CommandID("c\($0)")] })

        var invalid = valid
        var random = SeededGenerator(seed: UInt64(count))
        let broken = Set((0..<12).map { _ in random.below(count) }).sorted()
        for index in broken { invalid[index] = command(index, retries: 1_000 + index) }
        invalid[count - 1] = command(count - 1, dependency: "nowhere")
        let expected =
            broken.filter { $0 != count - 1 }.map {
                "commands[\($0)] (\"c\($0)\").retries: retries must be from 0 to 100, found \(1_000 + $0)"
            } + [#"commands[\#(count - 1)] ("c\#(count - 1)").dependencies[0]: unknown command "nowhere""#]
        #expect(problems(#"{"version": 1, "commands": [\#(invalid.joined(separator: ",\n"))]}"#) == expected)
    }

    @Test func decode_invalidJSON_reportsSyntaxWithPlace() throws {
        let error = try #require(throws: ManifestError.self) { try Manifest.decode(Array("{\"version\": 1,,}".utf8)) }
        #expect(error.problems.count == 1)
        #expect(error.problems[0].line == 1 && error.problems[0].column == 15)
        #expect(error.problems[0].message.hasPrefix("invalid JSON: "))
    }

    @Test func decode_invalidUTF8AndDeepNesting_areErrorsNotCrashes() {
        var bytes = Array(#"{"version": 1, "commands": [{"id": ""#.utf8) + [0xFF, 0xFE] + Array(#""}]}"#.utf8)
        #expect(throws: ManifestError.self) { try Manifest.decode(bytes) }
        bytes = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: ManifestError.self) { try Manifest.decode(bytes) }
    }

    @Test(arguments: [
        ("250ms", 250.0), ("1.5s", 1_500.0), ("2m", 120_000.0), ("1.5h", 5_400_000.0), ("8760h", 31_536_000_000.0), ("0ms", 0.0),
        ("0.5ms", 0.5),
    ])
    func durationText_parsesUnits(text: String, milliseconds: Double) throws {
        #expect(try #require(DurationText.parse(text)).fractionalMilliseconds == milliseconds)
    }

    @Test(arguments: ["40", "-1s", "1d", "8761h", "h", "s", "1.2.3s", " 5s", "5 s", "ms", "1e3ms", "nanms"])
    func durationText_rejectsMalformed(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test func durationText_formatsForPeople() {
        #expect(DurationText.format(.milliseconds(850)) == "850ms")
        #expect(DurationText.format(.microseconds(2_500)) == "2.5ms")
        #expect(DurationText.format(.milliseconds(1_250)) == "1.25s")
        #expect(DurationText.format(.seconds(125)) == "2m05s")
    }

    @Test(arguments: [
        (Duration.zero, "0ms"), (.microseconds(40), "0ms"), (.microseconds(50), "0.1ms"), (.microseconds(9_960), "10ms"),
        (.microseconds(2_000), "2ms"), (.milliseconds(1_010), "1.01s"), (.milliseconds(1_050), "1.05s"),
        (.seconds(2), "2s"), (.milliseconds(59_999), "60s"), (.microseconds(-2_500), "-2.5ms"), (.microseconds(-40), "0ms"),
        (.seconds(-90), "-1m30s"),
    ])
    func durationText_formatsDecimalsWithoutTrailingZeros(duration: Duration, text: String) {
        #expect(DurationText.format(duration) == text)
    }
}
