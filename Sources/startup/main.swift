import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

MallocArenas.padGrowth()
let environment = ProcessEnvironment.current()
let console = Console.standard(environment: environment)
let code = await StartupTool.main(
    Array(CommandLine.arguments.dropFirst()), environment: environment, console: console, handlesSignals: true,
    exitProcess: { code in exit(console.exitCode(after: code).rawValue) })
exit(console.exitCode(after: code).rawValue)
