import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

RunGuardian.serveIfAsked(CommandLine.arguments)
ClosedStandardDescriptors.hold()
IgnoredAtStart.record()
ProcessEngine.ownEveryChild()
MallocArenas.padGrowth()
// The tool runs on the cooperative pool. The main thread only waits, with SIGCHLD still blocked: an `await` here
// would park it in Dispatch's main loop, which accepts every signal and would take SIGCHLD from the engine.
Task.detached {
    let environment = ProcessEnvironment.current()
    let console = Console.standard(environment: environment)
    let code = await StartupTool.main(
        Array(CommandLine.arguments.dropFirst()), environment: environment, console: console, handlesSignals: true,
        exitProcess: { code in exit(console.exitCode(after: code).rawValue) })
    exit(console.exitCode(after: code).rawValue)
}
while true { pause() }
