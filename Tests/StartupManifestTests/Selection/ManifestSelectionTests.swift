import StartupKit
import StartupManifest
import Testing

@Suite struct ManifestSelectionTests {
    private let manifest = try! Manifest.decode(
        Array(
            """
            {"version": 1, "defaults": {"timeout": "5s"}, "commands": [
              {"id": "configuration", "run": "./configure"},
              {"id": "logging", "dependencies": ["configuration"], "run": "./log"},
              {"id": "database", "dependencies": ["configuration"], "run": "./db"},
              {"id": "search-index", "dependencies": ["database"], "run": "./index", "onDemand": true},
              {"id": "analytics", "dependencies": ["logging"], "run": "./analytics"},
              {"id": "first-screen", "dependencies": ["database", "logging"]}
            ]}
            """.utf8))

    @Test func selecting_keepsTheTargetsAndWhatTheyNeedTransitively_inDeclarationOrder() throws {
        let selected = try manifest.selecting(["first-screen"])
        #expect(selected.commands.map(\.id) == ["configuration", "logging", "database", "first-screen"])
        #expect(selected.defaults == manifest.defaults)
    }

    @Test func selecting_severalTargets_duplicates_andATargetAnotherNeeds_selectEachCommandOnce() throws {
        let selected = try manifest.selecting(["analytics", "configuration", "logging", "analytics"])
        #expect(selected.commands.map(\.id) == ["configuration", "logging", "analytics"])
    }

    @Test func selecting_aTargetThatIsOnDemand_makesItEager() throws {
        let selected = try manifest.selecting(["search-index"])
        #expect(selected.commands.map(\.id) == ["configuration", "database", "search-index"])
        #expect(selected.commands.allSatisfy { !$0.isOnDemand })
        #expect(manifest.commands[3].isOnDemand)
    }

    @Test func selecting_noTargets_keepsTheWholeManifest() throws {
        #expect(try manifest.selecting([]) == manifest)
    }

    @Test func selecting_unknownTargets_namesEachOnceWithTheClosestId() {
        #expect {
            _ = try manifest.selecting(["fist-screen", "database", "zzz", "fist-screen", "a\u{1B}[2J"])
        } throws: { error in
            (error as? UnknownTargetError)?.description == """
                unknown target "fist-screen" (did you mean "first-screen"?)
                unknown target "zzz"
                unknown target "a\\u001B[2J"
                """
        }
    }

    @Test func selecting_thousandsOfUnknownTargets_namesEachOnce() {
        let targets = (0..<20_000).map { CommandID("missing-\($0 % 10_000)") }
        #expect {
            _ = try manifest.selecting(targets)
        } throws: { error in
            (error as? UnknownTargetError)?.targets.count == 10_000
        }
    }

    @Test func selecting_aLongChain_walksWithoutRecursion() throws {
        let count = 100_000
        let chain = Manifest(
            commands: (0..<count).map { index in
                ManifestCommand(id: CommandID("c\(index)"), dependencies: index == 0 ? [] : [CommandID("c\(index - 1)")])
            } + [ManifestCommand(id: "unrelated")])
        let selected = try chain.selecting([CommandID("c\(count - 1)")])
        #expect(selected.commands.count == count)
        #expect(selected.commands.last?.id == CommandID("c\(count - 1)"))
    }
}
