import Testing

@testable import StartupCLI

/// The command line of the insight features: run's new options, plot and diff with their files,
/// plan --what-if, and the messages when they are wrong.
@Suite struct InsightArgumentTests {
    @Test func parse_runInsightOptions() throws {
        let invocation = try CommandLineParser.parse(["run", "--plot", "t.svg", "--budget=800ms", "--report", "r.json"])
        var expected = RunOptions()
        expected.plot = "t.svg"
        expected.budget = .milliseconds(800)
        expected.report = "r.json"
        #expect(invocation == .run(expected))
        var quiet = RunOptions()
        quiet.savesReport = false
        #expect(try CommandLineParser.parse(["run", "--no-report"]) == .run(quiet))
    }

    @Test func parse_planWhatIfAccumulates() throws {
        var expected = PlanOptions()
        expected.whatIf = [.drop("a"), .scale("b", factor: 0.5), .detach("c")]
        expected.report = "r.json"
        #expect(
            try CommandLineParser.parse(["plan", "--what-if", "drop=a; scale=b:0.5", "--what-if=defer=c", "--report", "r.json"])
                == .plan(expected))
        var estimatesOnly = PlanOptions()
        estimatesOnly.usesLastRun = false
        #expect(try CommandLineParser.parse(["plan", "--no-report"]) == .plan(estimatesOnly))
    }

    @Test func parse_plotAndDiffTakeFiles() throws {
        #expect(try CommandLineParser.parse(["plot"]) == .plot(PlotOptions()))
        #expect(try CommandLineParser.parse(["plot", "r.json", "-o", "t.svg"]) == .plot(PlotOptions(report: "r.json", output: "t.svg")))
        #expect(
            try CommandLineParser.parse(["plot", "--output=-", "--", "-odd.json"]) == .plot(PlotOptions(report: "-odd.json", output: "-")))
        #expect(
            try CommandLineParser.parse(["diff", "a.json", "--format", "json", "b.json"])
                == .diff(DiffOptions(before: "a.json", after: "b.json", format: .json)))
        #expect(try CommandLineParser.parse(["plot", "--help"]) == .help(.plot))
        #expect(try CommandLineParser.parse(["help", "diff"]) == .help(.diff))
    }

    @Test(arguments: [
        (
            ["run", "--budget", "800"],
            #"invalid duration "800" for --budget: write a non-negative number with a unit, ms, s, m or h, such as "250ms" or "1.5s""#
        ),
        (["run", "--budget", "0s"], "--budget must be longer than zero"),
        (["run", "--budegt", "1s"], "unknown option --budegt (did you mean --budget?)"),
        (["run", "--plto", "x.svg"], "unknown option --plto (did you mean --plot?)"),
        (["run", "--report", "r.json", "--no-report"], "--report and --no-report cannot be used together"),
        (["plan", "--what-iff", "drop=a"], "unknown option --what-iff (did you mean --what-if?)"),
        (
            ["plan", "--what-if", "speed=a"],
            #"--what-if: unknown change "speed"; use drop=ID, detach=ID, cut=ID->ID, scale=ID:FACTOR or set=ID:DURATION, separated by ";""#
        ),
        (["graph", "--what-if", "drop=a"], "unknown option --what-if"),
        (["plot", "a.json", "b.json"], #"unexpected argument "b.json"; plot draws one report (see startup plot --help)"#),
        (["plot", "--ouput", "x"], "unknown option --ouput (did you mean --output?)"),
        (
            ["diff", "a.json"],
            "diff needs two report files: startup diff BEFORE.json AFTER.json (startup run saves .startup/last-run.json)"
        ),
        (
            ["diff", "a", "b", "c"],
            #"unexpected argument "c"; diff compares two report files: startup diff BEFORE.json AFTER.json (startup run saves .startup/last-run.json)"#
        ),
        (["diff", "a", "b", "--format", "html"], #"--format must be one of text, json, not "html""#),
        (
            ["dif"],
            #"unknown subcommand "dif" (did you mean "diff"?); the subcommands are plan, run, graph, plot, diff, ps, restart, stop, start, logs, down, events and completions"#
        ),
    ])
    func parse_rejectsWithAMessage(arguments: [String], message: String) {
        do {
            _ = try CommandLineParser.parse(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.message == message)
        }
    }
}
