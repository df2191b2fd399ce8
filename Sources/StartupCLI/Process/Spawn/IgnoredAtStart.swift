import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals `startup` was started with ignored (SIGHUP under `nohup`, SIGINT and SIGQUIT in a script's background
/// job), recorded before it changes any. The command after `--`, which runs in `startup`'s place and process group,
/// keeps them ignored, as under make; every other child gets every signal at its default.
package enum IgnoredAtStart {
    /// Guards the signals recorded, none until ``record()``.
    private static let recorded = Locked<[Int32]>([])

    /// Records which signals are ignored now (not SIGCHLD, which `startup` resets for itself). For the binary: call
    /// it first thing, before anything sets a signal's action.
    package static func record() {
        var ignored: [Int32] = []
        for signal in 1..<Int32(NSIG) where signal != SIGCHLD {
            var action = sigaction()
            guard sigaction(signal, nil, &action) == 0 else { continue }
            #if canImport(Glibc)
                let handler = action.__sigaction_handler.sa_handler
            #else
                let handler = action.__sigaction_u.__sa_handler
            #endif
            if let handler, unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                ignored.append(signal)
            }
        }
        recorded.withLock { $0 = ignored }
    }

    /// The signals recorded as ignored.
    static var signals: [Int32] {
        recorded.withLock { $0 }
    }
}
