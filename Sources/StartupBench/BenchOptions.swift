#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bench's command line: `StartupBench [--quick] [--repeat N] [--only a,b]`.
struct BenchOptions: Sendable {
    /// The scenario keys, in the order they run.
    static let scenarioKeys = ["overhead", "makespan", "limited", "plan", "cli", "wait", "ready", "launch", "stop", "control"]

    /// A smoke run: fewer repetitions and smaller graphs; figures are not comparable to full runs.
    var quick = false
    /// How often every scenario repeats each measurement (medians are reported).
    var repetitions = 5
    /// The scenarios to run; `nil` for all.
    var only: Set<String>?

    /// Whether the scenario with this key runs.
    func includes(_ key: String) -> Bool {
        only.map { $0.contains(key) } ?? true
    }

    /// `full` in a normal run, `quick` in a smoke run.
    func size<T>(full: T, quick smoke: T) -> T {
        quick ? smoke : full
    }

    /// Parses the arguments (without the program name); prints usage and exits on `--help` or
    /// on a bad argument.
    static func parse(_ arguments: [String]) -> BenchOptions {
        var options = BenchOptions()
        var repetitions: Int?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                options.quick = true
            case "--repeat":
                guard let text = remaining.popFirst(), let count = Int(text), count > 0 else {
                    usage(exitCode: 64, error: "--repeat needs a positive number")
                }
                repetitions = count
            case "--only":
                let keys = Set((remaining.popFirst() ?? "").split(separator: ",").map(String.init))
                let unknown = keys.subtracting(scenarioKeys)
                guard !keys.isEmpty, unknown.isEmpty else {
                    usage(exitCode: 64, error: "--only takes a comma-separated list of: \(scenarioKeys.joined(separator: ", "))")
                }
                options.only = keys
            case "--help", "-h":
                usage(exitCode: 0, error: nil)
            default:
                usage(exitCode: 64, error: "unknown argument \"\(argument)\"")
            }
        }
        options.repetitions = repetitions ?? (options.quick ? 2 : 5)
        return options
    }

    /// Prints the usage (and an error, on stderr) and exits.
    private static func usage(exitCode: Int32, error: String?) -> Never {
        if let error { Console.error("Error: \(error)\n") }
        let text = """
            usage: StartupBench [--quick] [--repeat N] [--only \(scenarioKeys.joined(separator: ","))]
              --quick     smoke run: fewer repetitions, smaller graphs (figures not comparable)
              --repeat N  repetitions per measurement (default 5, quick 2); medians are reported
              --only K,.. run only these scenarios
            env: STARTUP_BIN  the `startup` binary for the cli, ready, stop and control scenarios (default .build/release/startup);
                              ready also needs the startup-test-server built beside it

            """
        if exitCode == 0 { Console.line(text) } else { Console.error(text) }
        exit(exitCode)
    }
}
