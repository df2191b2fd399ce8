import Foundation
import Testing

@testable import StartupCLI

@Suite struct ProcessEnvironmentTests {
    @Test func current_isFoundationsView() {
        let environment = ProcessEnvironment.current()
        #expect(!environment.isEmpty)
        #expect(environment == ProcessInfo.processInfo.environment)
    }
}
