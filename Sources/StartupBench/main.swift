// StartupBench: StartupKit side by side with peers written the obvious ways; see `--help`.
let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
let figures = await BenchRunner(options: options).run()
Summary.print(figures)
