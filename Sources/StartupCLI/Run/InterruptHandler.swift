#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Turns SIGINT and SIGTERM into a call, so a run can be cancelled cleanly instead of the process
/// dying with its children still running. Restores the default handling when stopped.
final class InterruptHandler {
    private static let signals = [SIGINT, SIGTERM]
    private let sources: [any DispatchSourceSignal]

    /// Starts handling; `onInterrupt` runs on a dispatch queue at every signal.
    init(onInterrupt: @escaping @Sendable () -> Void) {
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: onInterrupt)
            source.resume()
            return source
        }
    }

    /// Stops handling and restores the default action.
    func stop() {
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }
}
