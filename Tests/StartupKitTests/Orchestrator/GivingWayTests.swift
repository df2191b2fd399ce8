import Dispatch
import Foundation
import StartupSupport
import Testing

@testable import StartupKit

/// While a launch's priority work is unfinished (a command of raised priority, or one a task waits
/// for), the other async commands run off Swift's cooperative pool, on threads of StartupKit's
/// own: the priority work never waits behind them for a cooperative thread.
///
/// Serialized: each case needs every thread of the process's one ``BackgroundExecutor`` at once.
/// The limit only guards against a hang: under the thread sanitizer, beside the whole suite on two
/// cores, the cases took up to 56 s.
@Suite(.serialized, .timeLimit(.minutes(3))) struct GivingWayTests {
    /// As many commands as the cooperative pool has threads hold their threads (blocked, not
    /// spinning, so as not to starve the tests beside it) until the first screen has ended, and the
    /// first screen, once all of them hold theirs, needs a thread to resume. Run on the cooperative
    /// pool, they would hold every one of its threads and the first screen could never resume; each
    /// gives up after ten seconds, so that such a regression fails rather than hangs. With a
    /// timeout, a command runs in a task of its own, which must give way too.
    @Test(arguments: [nil, Duration.seconds(60)])
    func commandsHoldingTheirThreads_doNotHoldUpTheFirstScreensResumption(timeout: Duration?) async throws {
        let count = max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1)
        let holding = DispatchSemaphore(value: 0)
        let screenEnded = DispatchSemaphore(value: 0)
        let gaveUp = Locked(0)
        var builder = StartupPlanBuilder()
        for index in 0..<count {
            builder.add(CommandID("holds-\(index)"), options: .init(timeout: timeout)) { _ in
                holding.signal()
                if screenEnded.wait(timeout: .now() + .seconds(10)) == .timedOut { gaveUp.withLock { $0 += 1 } }
            }
        }
        builder.add("first-screen", options: .init(priority: .high)) { _ in
            await withCheckedContinuation { continuation in
                // Resumed from a thread of its own once every other command holds its thread.
                Thread {
                    for _ in 0..<count { holding.wait() }
                    continuation.resume()
                }.start()
            }
            for _ in 0..<count { screenEnded.signal() }
        }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
        #expect(gaveUp.withLock { $0 } == 0, "the commands saw the first screen end; none gave up waiting for it")
    }
}
