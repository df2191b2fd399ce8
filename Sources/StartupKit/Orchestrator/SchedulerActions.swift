/// One thing ``RunScheduler`` does after a ``SchedulerStateMachine`` input, once it has left
/// the lock.
enum SchedulerAction<Worker, Listener, Waiter, Reader> {
    /// Resume a parked worker with its next step (`.run` or `.exit`).
    case resume(Worker, WorkerStep)
    /// Start this attempt of a blocking command on the run's blocking pool now, with no worker;
    /// its end comes back as ``SchedulerStateMachine/blockingAttemptEnded(_:outcome:at:)``.
    case startBlocking(Job)
    /// Resume a waiting task with how its wait ended.
    case resolve(Waiter, WaitOutcome)
    /// Hand the report just made to the tasks waiting for it (boxed: a report is large, and
    /// every decision's actions are moved).
    indirect case handReport([Reader], StartupReport)
    /// Resume the waiting listener with events, or with `nil` for the end.
    case deliver(Listener, [StartupEvent]?)
    /// Held-back events are due at this run time: flush them then (``EventMailbox``).
    case flushEvents(at: Duration)
    /// The owner adds one more worker.
    case spawnWorker
    /// The owner cancels every worker's attempt (a stop).
    case cancelWorkers
    /// The run settled (nothing runs, nothing it wants is left): the owner makes the report.
    case makeReport
    /// A service ended by itself and the run's policy asks for the shutdown.
    case shutDown
    /// The run is over and closed: the owner's work is done.
    case finish
}

/// The actions of one ``SchedulerStateMachine`` input, in the order it decided them. Most inputs
/// decide none or one, so the first is kept inline and only a second one takes an array: a
/// decision allocates nothing on a run's common path.
struct SchedulerActions<Worker, Listener, Waiter, Reader>: Sequence {
    typealias Action = SchedulerAction<Worker, Listener, Waiter, Reader>

    private var first: Action?
    private var rest: [Action] = []

    /// Adds an action after those decided so far.
    mutating func append(_ action: Action) {
        if first == nil { first = action } else { rest.append(action) }
    }

    /// The actions in order.
    struct Iterator: IteratorProtocol {
        fileprivate var first: Action?
        fileprivate var rest: IndexingIterator<[Action]>

        /// The next action, or `nil` after the last.
        mutating func next() -> Action? {
            if let action = first {
                first = nil
                return action
            }
            return rest.next()
        }
    }

    /// Iterates the actions in the order decided.
    func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }
}

extension SchedulerAction: Sendable where Worker: Sendable, Listener: Sendable, Waiter: Sendable, Reader: Sendable {}
extension SchedulerActions: Sendable where Worker: Sendable, Listener: Sendable, Waiter: Sendable, Reader: Sendable {}
