import Foundation
import Testing

/// `"envFile"` through the built binary: which layer of the environment wins, and a missing file or a bad line
/// stopping `startup run` before anything starts.
@Suite struct EnvFileEndToEndTests {
    /// Every variable the precedence test reads, each set by `startup`'s own environment to `0`.
    private static let names = ["A", "B", "C", "D", "E", "F", "G"]
    /// Prints the variables, one character each, so the output shows which layer won for each.
    private static let printLine = #"printf '%s' \"$A$B$C$D$E$F$G\""#

    @Test func run_layersTheEnvironment_ownThenDefaultsFilesThenCommandFilesThenDefaultsEnvThenEnv() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("app"), withIntermediateDirectories: true)
        // Each layer sets the variables from its own letter on: A keeps startup's own 0, G gets the command's env 6.
        try folder.write("app/d1.env", "# the defaults' first file\nB=1\nC=1\nD=1\nE=1\nF=1\nG=1\n")
        try folder.write("app/d2.env", "export C=2\nD='2'\nE=\"2\"\nF=2 # a comment\nG=2\n")
        try folder.write("app/c1.env", "D=3\r\nE=3\r\nF=3\r\nG=3\r\n")
        try folder.write("app/c2.env", "E=4\nF=4\nG=4\n")
        try folder.write(
            "app/commands.json",
            """
            {"version": 1, "defaults": {"envFile": ["d1.env", "d2.env"], "env": {"F": "5", "G": "5"}},
             "commands": [
               {"id": "layered", "run": "\(Self.printLine) > out", "envFile": ["c1.env", "c2.env"], "env": {"G": "6"}},
               {"id": "defaults-only", "run": "\(Self.printLine) > out-defaults"},
               {"id": "one-file", "run": "\(Self.printLine) > out-one", "envFile": "c2.env"}
             ]}
            """)
        let own = Dictionary(uniqueKeysWithValues: Self.names.map { ($0, "0") })
        let result = try await StartupBinary.run(["run", "-f", "app/commands.json"], in: folder.path, environment: own)
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(try String(contentsOfFile: folder.file("app/out"), encoding: .utf8) == "0123456")
        #expect(try String(contentsOfFile: folder.file("app/out-defaults"), encoding: .utf8) == "0122255")
        #expect(try String(contentsOfFile: folder.file("app/out-one"), encoding: .utf8) == "0122455")
    }

    @Test func run_aMissingFile_exits66NamingIt_andStartsNothing() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("app"), withIntermediateDirectories: true)
        try folder.write("app/.env", "A=1\n")
        try folder.write(
            "app/commands.json",
            """
            {"version": 1, "defaults": {"envFile": ".env"}, "commands": [
              {"id": "first", "run": "touch marker"},
              {"id": "api", "dependencies": ["first"], "run": "true", "envFile": [".env", ".env.local"]}
            ]}
            """)
        let result = try await StartupBinary.run(["run", "-f", "app/commands.json"], in: folder.path)
        #expect(result.status == 66)
        #expect(result.error == "error: cannot read env file app/.env.local (the envFile of \"api\"): no such file\n")
        #expect(result.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file("app/marker")), "a command started")
    }

    @Test func run_aMissingDefaultsFile_orADirectory_exits66() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("envs"), withIntermediateDirectories: true)
        try folder.write(
            "commands.json",
            #"{"version": 1, "defaults": {"envFile": ["nope.env", "envs"]}, "commands": [{"id": "first", "run": "touch marker"}]}"#)
        let result = try await StartupBinary.run(["run"], in: folder.path)
        #expect(result.status == 66)
        #expect(result.error.contains("error: cannot read env file nope.env (the envFile of the defaults): no such file\n"))
        #expect(result.error.contains("error: cannot read env file envs (the envFile of the defaults): is a directory, not an env file\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("marker")))
    }

    @Test func run_aBadLine_exits65WithFileAndLine_andStartsNothing() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("good.env", "A=1\n")
        try folder.write("bad.env", "# settings\nPORT 8080\nNAME=\"unterminated\n")
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "first", "run": "touch marker", "envFile": "good.env"},
              {"id": "api", "dependencies": ["first"], "run": "true", "envFile": "bad.env"},
              {"id": "web", "dependencies": ["first"], "run": "true", "envFile": "bad.env"}
            ]}
            """)
        let result = try await StartupBinary.run(["run"], in: folder.path)
        #expect(result.status == 65)
        #expect(
            result.error
                == """
                error: bad.env:2: missing "=" in "PORT 8080"; write NAME=value
                error: bad.env:3: unterminated double-quoted value: add the closing " (a quoted value is one line)

                """, "each bad line once, though two commands name the file")
        #expect(result.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file("marker")), "a command started")
    }

    @Test func run_readsOnlyTheTargetsFiles_andPlanAndSimulateReadNone() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("first.env", "WHO=first\n")
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "first", "run": "printf '%s' \\"$WHO\\" > marker", "envFile": "first.env"},
              {"id": "later", "dependencies": ["first"], "run": "true", "envFile": "missing.env"}
            ]}
            """)
        let targeted = try await StartupBinary.run(["run", "first"], in: folder.path)
        #expect(targeted.status == 0, "stderr: \(targeted.error)")
        #expect(try String(contentsOfFile: folder.file("marker"), encoding: .utf8) == "first")
        #expect(try await StartupBinary.run(["plan"], in: folder.path).status == 0)
        #expect(try await StartupBinary.run(["run", "--simulate"], in: folder.path).status == 0)
        #expect(try await StartupBinary.run(["run"], in: folder.path).status == 66)
    }

    @Test func plan_checksTheKeysType() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "api", "run": "true", "envFile": 3}]}"#)
        let result = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(result.status == 65)
        #expect(
            result.error.contains(
                #"commands.json:1:69: commands[0] ("api").envFile: expected a file name or an array of file names, found the number 3"#))
    }
}
