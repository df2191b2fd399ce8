import Dispatch
import Foundation
import StartupSupport
import Testing

@testable import StartupKit

/// While a launch's priority work is unfinished (a command of raised priority, or one a task waits
/// for), the other async commands run off Swift's cooperative pool, on threads of StartupKit's
/// own: the priority work never waits behind them for a cooperative thread.
/// Serialized: each case needs every thread of the process's one ``BackgroundExecutor`` at once.
@Suite(.serialized, .timeLimit(.minutes(1))) struct GivingWayTests {
    /// As many commands as the cooperative pool has threads keep their threads busy until the first
    /// screen has ended, and the first screen, once all of them are busy, needs a thread to resume.
    /// Run on the cooperative pool, they would hold every one of its threads and the first screen
    /// could never resume; each gives up after ten seconds, so that such a regression fails rather
    /// than hangs. With a timeout, a command runs in a task of its own, which must give way too.
    @Test(arguments: [nil, Duration.seconds(60)])
    func commandsKeepingTheirThreadsBusy_doNotHoldUpTheFirstScreensResumption(timeout: Duration?) async throws {
        let count = max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1)
        let busy = DispatchSemaphore(value: 0)
        let screenEnded = Locked(false)
        let gaveUp = Locked(0)
        var builder = StartupPlanBuilder()
        for index in 0..<count {
            builder.add(CommandID("busy-\(index)"), options: .init(timeout: timeout)) { _ in
                busy.signal()
                let clock = ContinuousClock()
                let giveUp = clock.now.advanced(by: .seconds(10))
                while !screenEnded.withLock({ $0 }) {
                    guard clock.now < giveUp else {
                        gaveUp.withLock { $0 += 1 }
                        return
                    }
                }
            }
        }
        builder.add("first-screen", options: .init(priority: .high)) { _ in
            await withCheckedContinuation { continuation in
                // Resumed from a thread of its own once every busy command keeps its thread busy.
                Thread {
                    for _ in 0..<count { busy.wait() }
                    continuation.resume()
                }.start()
            }
            screenEnded.withLock { $0 = true }
        }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
        #expect(gaveUp.withLock { $0 } == 0, "the busy commands saw the first screen end; none gave up waiting for it")
    }
}
