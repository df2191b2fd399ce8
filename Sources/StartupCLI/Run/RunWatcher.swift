import StartupKit
import StartupSupport

/// The last of the run's observers: says when the others have seen the end of the start-up (so
/// the summary follows every progress line), records each end of a service that a restart follows, and ends
/// the session when a service ends for good.
struct RunWatcher: StartupObserver {
    /// Why a session after the start-up ends: whichever comes first.
    enum SessionEnd: Sendable {
        /// SIGINT, SIGTERM, SIGHUP, a closed standard output, or a cancelled caller.
        case interrupted
        /// A service ended by itself, and no restart follows.
        case serviceEnded(ServiceEndedError)
        /// The command after `--` exited.
        case commandExited
        /// `startup down` asked for the shutdown.
        case downRequested
    }

    /// Set when every observer has seen ``StartupEvent/runFinished(_:)``.
    let startUpShown = OneShot<Bool>()
    /// Set when the session ends.
    let sessionEnd = OneShot<SessionEnd>()
    /// Where the ends that restarts followed go.
    let endings: ProcessEndings

    func observe(_ event: StartupEvent) {
        switch event {
        case .runFinished: startUpShown.resolve(true)
        case .serviceEnded(let error, let at) where error.restart != nil:
            endings.recordRestart(of: error.service, at: at, end: ProcessEndings.end(of: error))
        case .serviceEnded(let error, _): sessionEnd.resolve(.serviceEnded(error))
        case .runStarted, .commandStarted, .commandRetrying, .commandFinished: break
        }
    }
}
