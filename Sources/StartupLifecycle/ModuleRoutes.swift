import StartupKit

/// Who gets what, worked out once when a ``StartupLifecycle`` is created: the active modules,
/// the subscribers of each event type in dependency order, and the chain of each request type.
struct ModuleRoutes: Sendable {
    typealias EventHandler = @Sendable (any Sendable) async throws -> Void
    typealias RequestHandler = @Sendable (any Sendable) async throws -> (any Sendable)?

    /// The subscribers of one event type.
    struct EventRoute: Sendable {
        /// Positions of the subscribing modules, in the plan's topological order.
        var subscribers: [Int] = []
        /// Each subscriber's handlers, in the order the module listed them.
        var handlers: [Int: [EventHandler]] = [:]
    }

    /// One link of a request's chain.
    struct Responder: Sendable {
        let position: Int
        let module: CommandID
        let priority: CommandPriority
        /// The subscription's place among all subscriptions, the last tie-breaker.
        let sequence: Int
        let respond: RequestHandler
    }

    /// The active modules (attached to commands that succeeded), in topological order, with
    /// their stop timeouts, and the inactive ones.
    let stops: ShutdownStops
    let events: [ObjectIdentifier: EventRoute]
    /// Each request type's chain, in the order handlers are asked.
    let requests: [ObjectIdentifier: [Responder]]

    /// Sorts out the modules of a plan whose start-up ended as `report` says.
    ///
    /// - Precondition: Every key of `modules` is a command of `plan`, `report` is a report of `plan`,
    ///   and every module's stop timeout is positive.
    /// - Complexity: O(commands + *s* log *s*) for *s* subscriptions.
    init(plan: StartupPlan, report: StartupReport, modules: [CommandID: any LifecycleModule], defaultStopTimeout: Duration) {
        let stops = ShutdownStops(plan: plan, report: report, modules: modules, defaultStopTimeout: defaultStopTimeout)
        let ids = plan.ids
        let ranks = plan.topologicalRanks()
        var events: [ObjectIdentifier: EventRoute] = [:]
        var requests: [ObjectIdentifier: [Responder]] = [:]
        var sequence = 0
        for position in stops.active.sorted() {
            let id = ids[position]
            for subscription in modules[id]!.subscriptions {
                switch subscription.handler {
                case .event(let handler):
                    events[subscription.type, default: EventRoute()].handlers[position, default: []].append(handler)
                case .request(let priority, let respond):
                    requests[subscription.type, default: []].append(
                        Responder(
                            position: position, module: id, priority: priority, sequence: sequence, respond: respond))
                }
                sequence += 1
            }
        }
        for type in events.keys {
            events[type]!.subscribers = events[type]!.handlers.keys.sorted { ranks[$0] < ranks[$1] }
        }
        for type in requests.keys {
            requests[type]!.sort { ($1.priority, $0.position, $0.sequence) < ($0.priority, $1.position, $1.sequence) }
        }
        self.stops = stops
        self.events = events
        self.requests = requests
    }
}
