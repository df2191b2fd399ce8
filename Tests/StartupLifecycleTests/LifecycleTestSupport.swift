import StartupKit
import StartupSeededRandom
import StartupSupport
import StartupTestSupport

@testable import StartupLifecycle

/// A module made of closures, so each test says exactly what its modules do.
struct TestModule: LifecycleModule {
    var subscriptions: [LifecycleSubscription] = []
    var stopTimeout: Duration? = nil
    var onStop: @Sendable () async throws -> Void = {}

    func stop() async throws {
        try await onStop()
    }
}

/// Test events, one per delivery.
struct InOrder: LifecycleEvent {}
struct Reversed: LifecycleEvent {
    static var delivery: LifecycleDelivery { .reverseDependencyOrder }
}
struct ConcurrentInOrder: LifecycleEvent {
    static var delivery: LifecycleDelivery { .concurrentDependencyOrder }
}
struct ConcurrentReversed: LifecycleEvent {
    static var delivery: LifecycleDelivery { .concurrentReverseDependencyOrder }
}

/// A request that wants a string.
struct WhoAreYou: LifecycleRequest {
    typealias Response = String
}

struct Boom: Error, Equatable {}

/// Waits for `gate`, or until the task is cancelled (as a test's time limit does), so a test
/// whose gate never opens fails instead of hanging.
func waitUnlessCancelled(for gate: Gate) async {
    await withTaskCancellationHandler {
        await gate.wait()
    } onCancel: {
        gate.open()
    }
}

/// Collects a lifecycle's activities.
final class ActivityCollector: LifecycleObserver {
    private let activities = Locked<[LifecycleActivity]>([])
    private let onActivity: @Sendable (LifecycleActivity) -> Void

    init(onActivity: @escaping @Sendable (LifecycleActivity) -> Void = { _ in }) {
        self.onActivity = onActivity
    }

    func observe(_ activity: LifecycleActivity) {
        activities.withLock { $0.append(activity) }
        onActivity(activity)
    }

    var all: [LifecycleActivity] { activities.withLock { $0 } }

    /// A compact text per activity, e.g. `handler a InOrder succeeded`.
    var summaries: [String] {
        all.map { activity in
            switch activity {
            case .deliveryStarted(let event, let subscribers, _): "deliver \(event) to \(subscribers)"
            case .requestStarted(let request, let handlers, _): "ask \(request) of \(handlers)"
            case .shutdownStarted(let modules, _): "shutdown \(modules)"
            case .handlerStarted(let module, let event, _): "call \(module) \(event)"
            case .handlerFinished(let module, let event, let status, _, _): "called \(module) \(event) \(status.name)"
            case .stopStarted(let module, _): "stop \(module)"
            case .stopFinished(let module, let status, _, _): "stopped \(module) \(status.name)"
            case .deliveryFinished(let report): "delivered \(report.event)"
            case .requestFinished(let request, let handler, _): "answered \(request) by \(handler?.rawValue ?? "nobody")"
            case .shutdownFinished(let report): "shut down \(report.status)"
            }
        }
    }

    /// The time of each activity, in the order they arrived (a report's end offset for the
    /// `...Finished` activities that carry one).
    var offsets: [Duration] {
        all.map { activity in
            switch activity {
            case .deliveryStarted(_, _, let at), .requestStarted(_, _, let at), .shutdownStarted(_, let at),
                .handlerStarted(_, _, let at), .stopStarted(_, let at), .requestFinished(_, _, let at),
                .handlerFinished(_, _, _, _, let at), .stopFinished(_, _, _, let at):
                at
            case .deliveryFinished(let report): report.endOffset
            case .shutdownFinished(let report): report.endOffset
            }
        }
    }

    /// Whether the activities' times never go backwards.
    var isChronological: Bool {
        let offsets = offsets
        return zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 }
    }
}

extension RandomGraph {
    /// `closure[i]` holds every direct or transitive dependency of command `i` (brute force, as a
    /// reference).
    var transitiveDependencies: [Set<Int>] {
        var closure: [Set<Int>] = []
        for command in 0..<count {
            var all = Set(dependencies[command])
            for dependency in dependencies[command] { all.formUnion(closure[dependency]) }
            closure.append(all)
        }
        return closure
    }

    /// Runs the graph as a plan whose commands are declared in a seeded shuffled order (so that
    /// declaration order is no topological order), with `failing` throwing; returns the plan and
    /// its report.
    func started(failing: Int? = nil) async throws -> (StartupPlan, StartupReport) {
        var random = SeededGenerator(seed: seed &+ 7)
        var builder = StartupPlanBuilder()
        for index in (0..<count).shuffled(using: &random) {
            builder.add(
                Self.id(index), dependsOn: dependencies[index].map(Self.id),
                options: CommandOptions(isOptional: true)
            ) { _ in
                if index == failing { throw Boom() }
            }
        }
        let plan = try builder.build()
        return (plan, await StartupOrchestrator(plan).run())
    }

    /// A seeded random subset of the commands, about half of them.
    func randomSubset(salt: UInt64) -> Set<Int> {
        var random = SeededGenerator(seed: seed &* 31 &+ salt)
        return Set((0..<count).filter { _ in Bool.random(using: &random) })
    }
}

/// Where each command's call started and finished in an `EventLog`.
struct LogPositions {
    var start: [Int: Int] = [:]
    var finish: [Int: Int] = [:]
    var starts: [Int] = []
    var duplicates: [Int] = []

    init(_ entries: [EventLog.Entry]) {
        for (position, entry) in entries.enumerated() {
            switch entry {
            case .started(let index):
                if start[index] != nil { duplicates.append(index) }
                start[index] = position
                starts.append(index)
            case .finished(let index):
                finish[index] = position
            }
        }
    }

    /// Whether `first`'s call finished before `second`'s started.
    func finished(_ first: Int, before second: Int) -> Bool {
        guard let end = finish[first], let begin = start[second] else { return false }
        return end < begin
    }
}
