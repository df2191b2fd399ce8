import Foundation
import StartupCLI

let environment = ProcessInfo.processInfo.environment
let console = Console.standard(environment: environment)
let code = await StartupTool.main(
    Array(CommandLine.arguments.dropFirst()), environment: environment, console: console, handlesSignals: true)
exit(console.exitCode(after: code).rawValue)
