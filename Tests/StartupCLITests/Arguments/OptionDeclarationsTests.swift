import Testing

@testable import StartupCLI

/// The option declarations the parser, `--help` and the completion scripts share: well formed,
/// and each one read by the parser under every name and form it has.
@Suite struct OptionDeclarationsTests {
    /// A value `option` accepts.
    private func sampleValue(of option: OptionDescriptor) -> String? {
        guard let value = option.value else { return nil }
        switch value.completion {
        case .choices(let choices): return choices.last
        case .path: return "x.json"
        case .directory: return "logs"
        case .freeText: return ["n": "2", "time": "1s", "changes": "drop=a", "id": "api"][value.name]
        }
    }

    @Test(arguments: Invocation.Subcommand.allCases)
    func names_areWellFormedAndUnique(subcommand: Invocation.Subcommand) {
        let options = OptionDeclarations.shown(for: subcommand)
        let names = options.flatMap(\.names)
        #expect(Set(names).count == names.count)
        for option in options {
            #expect(option.name.hasPrefix("--") && option.name.count > 3)
            #expect(option.shortName.map { $0.count == 2 && $0.hasPrefix("-") } ?? true)
            #expect(!option.help.isEmpty)
        }
    }

    @Test(arguments: Invocation.Subcommand.allCases)
    func everyShownOption_parsesUnderEachNameAndForm(subcommand: Invocation.Subcommand) throws {
        let operands =
            [
                Invocation.Subcommand.diff: ["a.json", "b.json"], .completions: ["bash"], .restart: ["api"], .stop: ["api"],
                .start: ["api"],
            ][
                subcommand] ?? []
        for option in OptionDeclarations.shown(for: subcommand) where option != .subcommandHelp {
            let value = sampleValue(of: option)
            #expect(value != nil || option.value == nil, "\(option.name) needs a sample value")
            var forms = option.names.map { [$0] + (value.map { [$0] } ?? []) }
            if let value {
                forms.append(["\(option.name)=\(value)"])
                if let short = option.shortName { forms.append([short + value]) }
            }
            for form in forms {
                #expect(throws: Never.self, "\(form)") { try CommandLineParser.parse([subcommand.rawValue] + form + operands) }
            }
        }
    }

    @Test func aValueJoinsAnyShortForm() throws {
        #expect(try CommandLineParser.parse(["plot", "-ot.svg"]) == .plot(PlotOptions(output: "t.svg")))
        #expect(try CommandLineParser.parse(["graph", "-fa.json"]) == .graph(PlanOptions(file: "a.json", format: .dot)))
    }

    @Test func hiddenOptions_areNeitherShownNorSuggested() throws {
        #expect(!OptionDeclarations.shown(for: .completions).contains { $0.name == "--ids" })
        #expect(try CommandLineParser.parse(["completions", "--ids", "--file=a.json"]) == .commandIDs(manifest: "a.json"))
        #expect(try CommandLineParser.parse(["completions", "--ids"]) == .commandIDs(manifest: "commands.json"))
        do {
            _ = try CommandLineParser.parse(["completions", "--id"])
            Issue.record("accepted --id")
        } catch {
            #expect(error.message == "unknown option --id")
        }
    }

    @Test func completions_parsesTheShell() throws {
        for shell in CompletionShell.allCases {
            #expect(try CommandLineParser.parse(["completions", shell.rawValue]) == .completions(shell))
        }
        #expect(try CommandLineParser.parse(["completions", "--help"]) == .help(.completions))
    }

    @Test func helpRows_wrapToTheWidth_andPutALongNameOnItsOwnLine() {
        let rows = HelpColumns.rows([("--name", "one two three four"), ("--a-very-long-name", "text")], column: 10)
        #expect(HelpColumns.wrapped("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(rows.hasPrefix("  --name  one two three four\n  --a-very-long-name\n          text"))
        #expect(HelpColumns.rows([("--x", "first\n  kept   as written")], column: 8) == "  --x   first\n          kept   as written")
    }
}
