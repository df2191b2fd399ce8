import Dispatch
import Foundation
import StartupSupport
import Testing

@testable import StartupKit

/// While a launch's priority work is unfinished (a command of raised priority, or one a task waits
/// for), the other async commands run off Swift's cooperative pool, on threads of StartupKit's own
/// at a lower priority: the priority work never waits behind them for a cooperative thread.
@Suite(.timeLimit(.minutes(1))) struct GivingWayTests {
    /// As many commands as the cooperative pool has threads keep their threads busy until the first
    /// screen has ended, and the first screen, once all of them are busy, needs a thread to resume.
    /// Run on the cooperative pool, they would hold every one of its threads and the first screen
    /// could never resume; each gives up after ten seconds, so that such a regression fails rather
    /// than hangs.
    @Test func commandsKeepingTheirThreadsBusy_doNotHoldUpTheFirstScreensResumption() async throws {
        let count = max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1)
        let busy = DispatchSemaphore(value: 0)
        let screenEnded = Locked(false)
        let gaveUp = Locked(0)
        var builder = StartupPlanBuilder()
        for index in 0..<count {
            builder.add(CommandID("busy-\(index)")) { _ in
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

    /// The threads of the commands that give way are lowered (on Linux, by 10 nice levels); once
    /// nothing raised is left, commands run at the process's priority again.
    @Test func commandsThatGiveWay_runOnLoweredThreads_andOnceNothingRaisedIsLeft_theOthersDoNot() async throws {
        #if canImport(Glibc)
            let niceness: @Sendable () -> Int32 = { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            let processNice = niceness()
            let seen = Locked<[CommandID: Int32]>([:])
            let analyticsStarted = DispatchSemaphore(value: 0)
            var builder = StartupPlanBuilder()
            builder.add("screen", options: .init(priority: .high)) { _ in
                seen.withLock { $0["screen"] = niceness() }
                // Unfinished until analytics has started, so that analytics gives way to it.
                await withCheckedContinuation { continuation in
                    Thread {
                        analyticsStarted.wait()
                        continuation.resume()
                    }.start()
                }
            }
            builder.add("analytics") { _ in
                seen.withLock { $0["analytics"] = niceness() }
                analyticsStarted.signal()
            }
            builder.add("after-screen", dependsOn: ["screen"]) { _ in seen.withLock { $0["after-screen"] = niceness() } }
            #expect(await StartupOrchestrator(try builder.build()).run().status == .succeeded)
            let nices = seen.withLock { $0 }
            #expect(nices["screen"] == processNice)
            #expect(nices["analytics"] == min(processNice + 10, 19), "it gave way to the screen, on a lowered thread")
            #expect(nices["after-screen"] == processNice, "nothing raised was left when it started")
        #endif
    }
}
