import Dispatch
import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT, SIGTERM and SIGHUP into calls, so a run can be cancelled cleanly instead of the
/// process dying with its children still running. One handler serves a whole subcommand: the run,
/// the wait of `--keep-running` and the stop lines each route interrupts to themselves in turn
/// (signals come through the process's one ``SignalPipe``).
///
/// A second interrupt also makes the process engine kill at once what it is stopping, rather than
/// wait out the grace period. SIGPIPE is ignored while the handler lives: a closed standard output
/// is reported by the console as a failed write, which stops the run like a first interrupt.
///
/// A signal that was ignored when `startup` started stays ignored, as make and the shells do: `nohup
/// startup run --keep-running &` outlives its terminal, and a script's background `startup run &`
/// keeps ignoring SIGINT.
final class InterruptHandler {
    /// The signals that interrupt a run.
    private static let interrupts = [SIGINT, SIGTERM, SIGHUP]
    /// The process's interrupts, forwarded from the first handler on: those not ignored when `startup` started.
    private static let pipe = SignalPipe(forwarding: interrupts)
    /// Where interrupts go (a struct, not a tuple: see `Console`'s output state).
    private struct Route: Sendable {
        /// What an interrupt does now.
        var action: (@Sendable () -> Void)?
        /// Whether one arrived while nothing was routed.
        var pending = false
        /// How many came, a closed standard output counting as one.
        var count = 0
    }

    /// Guards where interrupts go.
    private let route = Locked(Route())

    /// Starts handling; interrupts do nothing until routed (but are remembered).
    init() {
        signal(SIGPIPE, SIG_IGN)
        let route = self.route
        Self.pipe.forward { count in Self.interrupt(route, count: count) }
    }

    /// What to do when standard output is closed: stop the run like a first interrupt (nothing if
    /// one came already). Delivered from a Dispatch queue, as signals are from their own thread: the
    /// failed write may happen where cancelling the run cannot (inside an observer call).
    var outputClosedAction: @Sendable () -> Void {
        let route = self.route
        return { DispatchQueue.global().async { Self.interrupt(route, count: 0) } }
    }

    /// Counts `count` signals (0: a closed standard output, which acts only as a first interrupt)
    /// and acts on them: the routed action, and from the second signal on, SIGKILL at once.
    private static func interrupt(
        _ route: Locked<Route>, count: Int
    ) {
        let (action, total) = route.withLock { route -> ((@Sendable () -> Void)?, Int) in
            if count == 0 && route.count > 0 { return (nil, route.count) }
            route.count += max(1, count)
            if route.action == nil { route.pending = true }
            return (route.action, route.count)
        }
        if count > 0 && total > 1 { ProcessEngine.shared.killAtOnce() }
        action?()
    }

    /// Sends interrupts to `action` from now on; runs it at once if one arrived while nothing was
    /// routed.
    func route(to action: @escaping @Sendable () -> Void) {
        let missed = route.withLock { route in
            route.action = action
            defer { route.pending = false }
            return route.pending
        }
        if missed { action() }
    }

    /// Whether an interrupt, or a closed standard output, has come since the handler started.
    var hasInterrupted: Bool {
        route.withLock { $0.count > 0 }
    }

    /// How many interrupts have come since the handler started, a closed standard output counting as one.
    var interruptCount: Int {
        route.withLock { $0.count }
    }

    /// Interrupts are remembered again, not acted on.
    func unroute() {
        route.withLock { $0.action = nil }
    }

    /// Stops handling and restores the default actions (the interrupts ignored from the start stay ignored).
    func stop() {
        Self.pipe.stopForwarding()
        signal(SIGPIPE, SIG_DFL)
    }
}
