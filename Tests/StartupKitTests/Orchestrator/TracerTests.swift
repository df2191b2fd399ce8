import Dispatch
import StartupSupport
import Testing

@testable import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tracer is called on the thread that runs each attempt, just before and just after it,
/// once each, for async, blocking and main-actor commands alike.
@Suite(.timeLimit(.minutes(1))) struct TracerTests {
    /// What happened, on which thread.
    enum Mark: Hashable {
        case willStart(CommandID, attempt: Int)
        case body(CommandID)
        case didEnd(CommandID, attempt: Int, failed: Bool)
    }

    /// Marks the main queue, which the main actor's jobs run on. Once `dispatchMain()` has
    /// run, the main queue's jobs may run on any of Dispatch's threads, so the main actor is
    /// recognised by its queue, not by the main thread's identity.
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    final class Recorder: StartupTracer {
        let marks = Locked<[(Mark, pthread_t)]>([])
        /// The marks made on the main queue, that is, on the main actor.
        let onMainQueue = Locked<[Mark]>([])

        func record(_ mark: Mark) {
            let thread = pthread_self()
            marks.withLock { $0.append((mark, thread)) }
            if DispatchQueue.getSpecific(key: TracerTests.mainQueueKey) == true {
                onMainQueue.withLock { $0.append(mark) }
            }
        }

        func attemptWillStart(_ command: CommandID, attempt: Int) {
            record(.willStart(command, attempt: attempt))
        }

        func attemptDidEnd(_ command: CommandID, attempt: Int, error: (any Error)?) {
            record(.didEnd(command, attempt: attempt, failed: error != nil))
        }

        /// The marks of `command`, in order, and whether they were all made on one thread.
        func marks(of command: CommandID) -> (marks: [Mark], oneThread: Bool) {
            let mine = marks.withLock { $0 }.filter { mark, _ in
                switch mark {
                case .willStart(let id, _), .body(let id), .didEnd(let id, _, _): id == command
                }
            }
            let threads = mine.map(\.1)
            return (mine.map(\.0), threads.allSatisfy { pthread_equal($0, threads[0]) != 0 })
        }
    }

    @Test func eachAttempt_isTracedOnItsOwnThread_beforeAndAfter_onceEach() async throws {
        struct Boom: Error {}
        let tracer = Recorder()
        var builder = StartupPlanBuilder()
        builder.add("load") { _ in tracer.record(.body("load")) }
        builder.addBlocking("sdk") { _ in tracer.record(.body("sdk")) }
        builder.addOnMainActor("screen", dependsOn: ["load", "sdk"]) { _ in tracer.record(.body("screen")) }
        builder.addBlocking("flaky", options: .init(retry: .retry(times: 1, initialDelay: .zero))) { context in
            tracer.record(.body("flaky"))
            if context.attempt == 1 { throw Boom() }
        }
        let report = await StartupOrchestrator(try builder.build(), options: .init(tracer: tracer)).run()
        #expect(report.status == .succeeded)

        for id: CommandID in ["load", "sdk", "screen"] {
            let (marks, oneThread) = tracer.marks(of: id)
            #expect(marks == [.willStart(id, attempt: 1), .body(id), .didEnd(id, attempt: 1, failed: false)])
            #expect(oneThread, "\(id) traced on the thread that ran it")
        }
        #expect(
            tracer.onMainQueue.withLock { $0 }
                == [.willStart("screen", attempt: 1), .body("screen"), .didEnd("screen", attempt: 1, failed: false)],
            "the main-actor command, and only it, is traced on the main actor")
        let (flaky, _) = tracer.marks(of: "flaky")
        #expect(
            flaky == [
                .willStart("flaky", attempt: 1), .body("flaky"), .didEnd("flaky", attempt: 1, failed: true),
                .willStart("flaky", attempt: 2), .body("flaky"), .didEnd("flaky", attempt: 2, failed: false),
            ])
    }
}
