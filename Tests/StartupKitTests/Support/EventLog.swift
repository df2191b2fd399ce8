import StartupSupport
import StartupTestSupport
import Testing

@testable import StartupKit

/// Collects a run's observer events.
final class EventCollector: StartupObserver {
    private let events = Locked<[StartupEvent]>([])

    func observe(_ event: StartupEvent) {
        events.withLock { $0.append(event) }
    }

    var all: [StartupEvent] { events.withLock { $0 } }

    /// A compact text per event, e.g. `started c1 #1`, `finished c1 succeeded`.
    var summaries: [String] {
        all.compactMap { event in
            switch event {
            case .commandStarted(let id, let attempt, _): "started \(id) #\(attempt)"
            case .commandRetrying(let id, let attempt, let outcome, _, _): "retrying \(id) after #\(attempt) \(outcome.name)"
            case .commandFinished(let id, let status, _, _, _): "finished \(id) \(status.name)"
            case .serviceEnded(let error, _): "service \(error.service) ended"
            case .runStarted, .runFinished: nil
            }
        }
    }
}

extension EventLog {
    /// Checks the log against `graph`: no command started twice, and none before each of its
    /// dependencies finished. Returns the commands that started.
    @discardableResult
    func expectEachStartedOnceAfterItsDependencies(in graph: RandomGraph) -> Set<Int> {
        var started: [Int: Int] = [:]
        var finished: [Int: Int] = [:]
        for (place, entry) in entries.enumerated() {
            switch entry {
            case .started(let command):
                #expect(started[command] == nil, "c\(command) started twice in \(graph)")
                started[command] = place
            case .finished(let command):
                finished[command] = place
            }
        }
        for (command, start) in started {
            for dependency in graph.dependencies[command] {
                #expect((finished[dependency] ?? .max) < start, "c\(command) started before c\(dependency) finished in \(graph)")
            }
        }
        return Set(started.keys)
    }
}
