import Foundation
import StartupCLI

let environment = ProcessInfo.processInfo.environment
let code = await StartupTool.main(
    Array(CommandLine.arguments.dropFirst()), environment: environment,
    console: .standard(environment: environment), handlesSignals: true)
exit(code.rawValue)
