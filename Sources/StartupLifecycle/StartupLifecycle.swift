import StartupKit
import StartupSupport

/// Carries an application past launch: delivers lifecycle events to the modules attached to the
/// plan's commands in dependency order, passes requests along a chain of responsibility, and stops
/// the modules in reverse dependency order at shutdown.
///
/// ```swift
/// let report = await StartupOrchestrator(plan).run()
/// let lifecycle = try StartupLifecycle(plan: plan, report: report, modules: [
///     "database": database,
///     "image-cache": imageCache,
/// ])
/// await lifecycle.post(MemoryPressure(level: .warning))
/// let answer = try await lifecycle.ask(OpenURL(url: "app://settings"))
/// let shutdown = await lifecycle.shutdown()
/// ```
///
/// The start-up graph is the module graph: a module receives events after the modules it depends
/// on (or before them, for teardown-like events), and stops only after every module that depends
/// on it has stopped. Only modules whose commands succeeded at start-up take part; the others
/// never started, so they receive nothing and are not stopped.
///
/// A lifecycle is an actor, and it moves from running to stopping to stopped, once: after
/// ``shutdown()`` has begun, events reach no module and requests are unhandled.
public actor StartupLifecycle {
    /// How a lifecycle stops its modules and whom it tells.
    public struct Options: Sendable {
        /// The longest a module's stop may take, for modules that do not set their own
        /// `stopTimeout`.
        public var stopTimeout: Duration
        /// Receive every activity of the lifecycle.
        public var observers: [any LifecycleObserver]

        /// Creates options.
        ///
        /// - Parameters:
        ///   - stopTimeout: The default limit of a module's stop; positive. 10 seconds by default.
        ///   - observers: Receive the lifecycle's activities.
        public init(stopTimeout: Duration = .seconds(10), observers: [any LifecycleObserver] = []) {
            precondition(stopTimeout > .zero, "the stop timeout must be positive")
            self.stopTimeout = stopTimeout
            self.observers = observers
        }
    }

    private enum State {
        case running
        /// Shutdown is under way; these callers wait for its report.
        case stopping([CheckedContinuation<ShutdownReport, Never>])
        case stopped(ShutdownReport)
    }

    /// The plan whose graph orders the modules.
    public nonisolated let plan: StartupPlan
    /// The options this lifecycle was created with.
    public nonisolated let options: Options
    /// Commands whose modules take part (their commands succeeded at start-up), in the plan's
    /// topological order.
    public nonisolated let activeModules: [CommandID]
    /// Commands with an attached module that did not succeed at start-up, in declaration order.
    public nonisolated let inactiveModules: [CommandID]

    let routes: ModuleRoutes
    let clock: StartedClock
    private var state = State.running
    /// Deliveries and requests under way; shutdown waits for them.
    private var callsInFlight = 0
    private var drained: OneShot<Void>?

    /// Creates the lifecycle of a started application.
    ///
    /// - Parameters:
    ///   - plan: The plan that was run.
    ///   - report: Its report: modules of commands that did not succeed take no part.
    ///   - modules: The modules, each attached to the command that sets it up.
    ///   - options: The default stop timeout and the observers.
    ///   - clock: Measures offsets (from now) and times stop timeouts.
    /// - Throws: ``LifecycleError`` with code ``LifecycleError/Code/unknownCommand`` when a module
    ///   is attached to a command the plan does not have (the first such id in sorted order), with
    ///   the closest command as a suggestion.
    /// - Precondition: `report` is a report of `plan`; every module's stop timeout is positive.
    /// - Complexity: O(commands + *s* log *s*) for *s* subscriptions.
    public init<C: Clock>(
        plan: StartupPlan, report: StartupReport, modules: [CommandID: any LifecycleModule],
        options: Options = Options(), clock: C = ContinuousClock()
    ) throws where C.Duration == Duration {
        precondition(report.commands.map(\.id) == plan.ids, "the report is not a report of this plan")
        for id in modules.keys.sorted() where !plan.contains(id) {
            throw LifecycleError(
                code: .unknownCommand, module: id,
                suggestion: IdentifierSuggestion.closest(to: id, in: plan.ids))
        }
        self.init(plan: plan, report: report, modules: modules, options: options, startedClock: RunClock(clock).started())
    }

    /// A lifecycle on a clock that is already running (a run's, for the run's shutdown).
    ///
    /// - Precondition: As the public initialiser's, and every key of `modules` is a command of `plan`.
    init(
        plan: StartupPlan, report: StartupReport, modules: [CommandID: any LifecycleModule], options: Options,
        startedClock: StartedClock
    ) {
        let routes = ModuleRoutes(plan: plan, report: report, modules: modules, defaultStopTimeout: options.stopTimeout)
        self.plan = plan
        self.options = options
        self.routes = routes
        let ids = plan.ids
        self.activeModules = routes.stops.active.map { ids[$0] }
        self.inactiveModules = routes.stops.inactive
        self.clock = startedClock
    }

    /// Delivers an event to every active module that subscribes to its type, in the order
    /// `Event.delivery` asks for, and reports how each call went.
    ///
    /// A handler that throws is recorded in the report; the event still reaches every other
    /// subscriber, including those that depend on the failing one. Cancelling the calling task
    /// cancels the handlers in flight and calls no more. After ``shutdown()`` has begun, the
    /// event reaches no module.
    ///
    /// - Parameter event: The event.
    /// - Returns: One report per subscriber, with timings.
    /// - Complexity: O(subscribers) scheduling for a one-at-a-time delivery; O(commands + edges)
    ///   for a concurrent one; plus the handlers' own work.
    @discardableResult
    public func post<Event: LifecycleEvent>(_ event: Event) async -> EventDeliveryReport {
        let name = String(describing: Event.self)
        let start = clock.elapsed()
        let began = beginCall()
        defer { if began { endCall() } }
        let route = began ? routes.events[ObjectIdentifier(Event.self)] ?? .init() : .init()
        notify(.deliveryStarted(event: name, subscribers: route.subscribers.count, at: start))
        let calls = await ModuleCallWalk(plan: plan, clock: clock).callAll(
            route.subscribers, reversed: Event.delivery.isReversed, concurrently: Event.delivery.isConcurrent,
            started: { module, at in notify(.handlerStarted(module, event: name, at: at)) },
            finished: { call in
                notify(
                    .handlerFinished(
                        call.module, event: name, status: call.status, startOffset: call.startOffset, at: call.endOffset!))
            },
            call: { position in await Self.deliver(event, to: route.handlers[position] ?? []) })
        let report = EventDeliveryReport(
            event: name, delivery: Event.delivery, calls: calls,
            startOffset: start, endOffset: clock.elapsed())
        notify(.deliveryFinished(report))
        return report
    }

    /// Passes a request along the chain of its handlers, highest priority first, until one
    /// answers, and says which one did.
    ///
    /// Only active modules are asked. After ``shutdown()`` has begun, the answer is `.unhandled`.
    ///
    /// - Parameter request: The request.
    /// - Returns: The first answer and the command whose module gave it, or `.unhandled`.
    /// - Throws: ``LifecycleError`` with code ``LifecycleError/Code/handlerFailed`` when a handler
    ///   throws (no later handler is asked); `CancellationError` when the calling task is cancelled
    ///   before a handler answers.
    /// - Complexity: O(handlers asked), plus their own work.
    public func ask<Request: LifecycleRequest>(_ request: Request) async throws -> LifecycleAnswer<Request.Response> {
        let name = String(describing: Request.self)
        let began = beginCall()
        defer { if began { endCall() } }
        let chain = began ? routes.requests[ObjectIdentifier(Request.self)] ?? [] : []
        notify(.requestStarted(request: name, handlers: chain.count, at: clock.elapsed()))
        var answer: LifecycleAnswer<Request.Response> = .unhandled
        defer { notify(.requestFinished(request: name, handledBy: answer.handler, at: clock.elapsed())) }
        for responder in chain {
            try Task.checkCancellation()
            let begin = clock.elapsed()
            notify(.handlerStarted(responder.module, event: name, at: begin))
            do {
                let response = try await responder.respond(request)
                notify(.handlerFinished(responder.module, event: name, status: .succeeded, startOffset: begin, at: clock.elapsed()))
                if let response {
                    // The subscription erased `Request.Response` to `any Sendable`; it is one.
                    answer = .handled(response as! Request.Response, by: responder.module)
                    return answer
                }
            } catch is CancellationError where Task.isCancelled {
                notify(.handlerFinished(responder.module, event: name, status: .cancelled, startOffset: begin, at: clock.elapsed()))
                throw CancellationError()
            } catch {
                notify(.handlerFinished(responder.module, event: name, status: .failed(error), startOffset: begin, at: clock.elapsed()))
                throw LifecycleError(code: .handlerFailed, module: responder.module, underlying: error)
            }
        }
        return answer
    }

    /// Stops every active module, each only after every module that depends on it has stopped,
    /// independent ones concurrently, each under its timeout; and reports how each stop went.
    ///
    /// Shutdown first waits for deliveries and requests under way, so no module is stopped while
    /// it handles an event (so never await `shutdown()` from inside a handler: it would wait for
    /// itself). A stop that throws or times out is reported, and the modules it depends on stop
    /// anyway: a stop that hangs holds them up for its timeout at most, after which it is
    /// cancelled and no longer waited for. `shutdown()` therefore returns within the longest chain
    /// of stop timeouts, even if a stop ignores cancellation.
    ///
    /// Shutdown happens once: later and concurrent calls return the same report. Cancelling the
    /// task that began it cancels the stops in flight and stops nothing more; the report still
    /// comes back, with status `.cancelled`.
    ///
    /// - Returns: Each module's stop, with timings.
    /// - Complexity: O(commands + edges) scheduling, plus the stops' own work.
    public func shutdown() async -> ShutdownReport {
        switch state {
        case .stopped(let report):
            return report
        case .stopping:
            return await withCheckedContinuation { continuation in waitForShutdown(continuation) }
        case .running:
            state = .stopping([])
        }
        let start = clock.elapsed()
        notify(.shutdownStarted(modules: routes.stops.active.count, at: start))
        await drainCalls()
        let report = await routes.stops.stopAll(
            plan: plan, clock: clock, since: start,
            started: { module, at in notify(.stopStarted(module, at: at)) },
            finished: { stop in
                notify(.stopFinished(stop.module, status: stop.status, startOffset: stop.startOffset, at: stop.endOffset!))
            })
        notify(.shutdownFinished(report))
        if case .stopping(let waiters) = state {
            for waiter in waiters { waiter.resume(returning: report) }
        }
        state = .stopped(report)
        return report
    }

    private func waitForShutdown(_ continuation: CheckedContinuation<ShutdownReport, Never>) {
        switch state {
        case .stopping(var waiters):
            waiters.append(continuation)
            state = .stopping(waiters)
        case .stopped(let report):
            continuation.resume(returning: report)
        case .running:
            preconditionFailure("a caller waits for a shutdown that has not begun")
        }
    }

    /// Counts a delivery or request in, unless shutdown has begun.
    private func beginCall() -> Bool {
        guard case .running = state else { return false }
        callsInFlight += 1
        return true
    }

    private func endCall() {
        callsInFlight -= 1
        if callsInFlight == 0 { drained?.resolve(()) }
    }

    /// Waits until no delivery or request is under way, or the task is cancelled.
    private func drainCalls() async {
        guard callsInFlight > 0 else { return }
        let signal = OneShot<Void>()
        drained = signal
        await withTaskCancellationHandler {
            await signal.value()
        } onCancel: {
            signal.resolve(())
        }
        drained = nil
    }

    func notify(_ activity: LifecycleActivity) {
        for observer in options.observers { observer.observe(activity) }
    }

    /// Calls every handler a module has for an event, in order, stopping at the first that throws.
    private static func deliver(_ event: any Sendable, to handlers: [ModuleRoutes.EventHandler]) async -> ModuleCallStatus {
        do {
            for handler in handlers { try await handler(event) }
            return .succeeded
        } catch is CancellationError where Task.isCancelled {
            return .cancelled
        } catch {
            return .failed(error)
        }
    }
}
