import Testing

@testable import StartupCLI

@Suite struct CommandLineParserTests {
    @Test func parse_runWithEveryOption() throws {
        let invocation = try CommandLineParser.parse([
            "run", "--file", "x.json", "-j4", "--fail-fast", "--simulate", "--output=stream", "--format", "json",
            "--trace-file", "t.json", "--grace-period", "500ms",
        ])
        var expected = RunOptions()
        expected.file = "x.json"
        expected.jobs = 4
        expected.failFast = true
        expected.simulate = true
        expected.output = .stream
        expected.format = .json
        expected.trace = true
        expected.traceFile = "t.json"
        expected.gracePeriod = .milliseconds(500)
        #expect(invocation == .run(expected))
    }

    @Test func parse_planDefaultsAndShortForms() throws {
        #expect(try CommandLineParser.parse(["plan"]) == .plan(PlanOptions()))
        #expect(
            try CommandLineParser.parse(["plan", "-f", "a.json", "-j", "2", "--format", "mermaid"])
                == .plan(PlanOptions(file: "a.json", jobs: 2, format: .mermaid)))
        #expect(try CommandLineParser.parse(["graph"]) == .graph(PlanOptions(format: .dot)))
    }

    @Test func parse_targetsOfRunAndPlan_amongOptions_inTheOrderGiven() throws {
        var run = RunOptions()
        run.jobs = 2
        run.targets = ["first-screen", "database", "first-screen"]
        #expect(try CommandLineParser.parse(["run", "first-screen", "-j", "2", "database", "first-screen"]) == .run(run))
        var plan = PlanOptions(format: .json)
        plan.targets = ["api", "-odd-id", "--format"]
        #expect(try CommandLineParser.parse(["plan", "api", "--format=json", "--", "-odd-id", "--format"]) == .plan(plan))
    }

    @Test func parse_runDoubleDash_takesTheRestAsTheCommand_evenItsOptions() throws {
        var run = RunOptions()
        run.targets = ["api"]
        run.jobs = 2
        run.command = ["make", "test", "--help", "-j", "8"]
        #expect(try CommandLineParser.parse(["run", "api", "-j2", "--", "make", "test", "--help", "-j", "8"]) == .run(run))
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["run", "--"]) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["run", "--keep-running", "--", "true"]) }
    }

    @Test func parse_noWatch_turnsWatchingOff_andCIModeNeverWatches() throws {
        #expect(RunOptions().watches)
        guard case .run(let noWatch) = try CommandLineParser.parse(["run", "--no-watch"]) else {
            Issue.record("not a run")
            return
        }
        #expect(!noWatch.watchesFiles && !noWatch.watches)
        guard case .run(let ciMode) = try CommandLineParser.parse(["run", "--", "make", "test"]) else {
            Issue.record("not a run")
            return
        }
        #expect(ciMode.watchesFiles && !ciMode.watches, "a command after -- never watches")
        guard case .run(let both) = try CommandLineParser.parse(["run", "--no-watch", "--", "true"]) else {
            Issue.record("not a run")
            return
        }
        #expect(!both.watches)
    }

    @Test func parse_helpAndVersion() throws {
        #expect(try CommandLineParser.parse([]) == .help(nil))
        #expect(try CommandLineParser.parse(["--help"]) == .help(nil))
        #expect(try CommandLineParser.parse(["run", "--help"]) == .help(.run))
        #expect(try CommandLineParser.parse(["help", "plan"]) == .help(.plan))
        #expect(try CommandLineParser.parse(["--version"]) == .version)
    }

    @Test(arguments: [
        (
            ["rnu"],
            #"unknown subcommand "rnu" (did you mean "run"?); the subcommands are plan, run, graph, plot, diff, ps, restart, stop, start, logs, down, events and completions"#
        ),
        (["run", "--jbos", "2"], "unknown option --jbos (did you mean --jobs?)"),
        (["run", "-j", "0"], #"-j needs a whole number from 1 to 1000000, not "0""#),
        (["run", "--jobs"], "--jobs needs a value"),
        (["run", "--output", "loud"], #"--output must be one of grouped, stream, quiet, not "loud""#),
        (["graph", "extra"], #"unexpected argument "extra"; graph takes only options (see startup graph --help)"#),
        (["graph", "--format", "text"], #"--format must be one of dot, mermaid, not "text""#),
        (
            ["run", "--grace-period", "2"],
            #"invalid duration "2" for --grace-period: write a non-negative number with a unit, ms, s, m or h, such as "250ms" or "1.5s""#
        ),
        (["run", "--fail-fast=yes"], #"unexpected value "yes""#),
    ])
    func parse_rejectsWithAMessage(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try CommandLineParser.parse(arguments) }
        do {
            _ = try CommandLineParser.parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }
}
