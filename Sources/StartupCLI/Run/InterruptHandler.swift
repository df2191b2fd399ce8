#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import StartupKit

/// Turns SIGINT and SIGTERM into calls, so a run can be cancelled cleanly instead of the process
/// dying with its children still running. One handler serves a whole subcommand: the run, the
/// wait of `--keep-running` and the stop lines each route interrupts to themselves in turn
/// (libdispatch installs its signal handling once per process, so handlers must not come and go).
final class InterruptHandler {
    private static let signals = [SIGINT, SIGTERM]
    private let sources: [any DispatchSourceSignal]
    /// What an interrupt does now, and whether one arrived while nothing was routed.
    private let route = Locked<(action: (@Sendable () -> Void)?, pending: Bool)>((nil, false))

    /// Starts handling; interrupts do nothing until routed (but are remembered).
    init() {
        let route = self.route
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let action = route.withLock { route in
                    if route.action == nil { route.pending = true }
                    return route.action
                }
                action?()
            }
            source.resume()
            return source
        }
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

    /// Interrupts are remembered again, not acted on.
    func unroute() {
        route.withLock { $0.action = nil }
    }

    /// Stops handling and restores the default action.
    func stop() {
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }
}
