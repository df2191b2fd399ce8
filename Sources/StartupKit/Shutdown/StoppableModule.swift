/// A part of the application that a start-up command sets up and the run's shutdown stops: after
/// every module and service that depends on it, within its stop timeout.
///
/// Attach modules to their commands in ``StartupRun/shutdown(modules:stopTimeout:)``:
///
/// ```swift
/// actor ImageCache: StoppableModule {
///     func stop() async throws { try await flush() }
/// }
/// let stopped = await run.shutdown(modules: ["image-cache": imageCache])
/// ```
///
/// A module whose command did not succeed at start-up never started, so it is not stopped. The
/// `StartupLifecycle` library's `LifecycleModule` is a stoppable module that also receives events.
public protocol StoppableModule: Sendable {
    /// The longest ``stop()`` may take before it is cancelled and reported as timed out; `nil`
    /// (the default) uses the shutdown's stop timeout. Must be positive.
    var stopTimeout: Duration? { get }

    /// Releases what the module holds, at shutdown.
    ///
    /// It is called once every module that depends on this one has stopped (or failed or timed
    /// out stopping). It should return promptly when its task is cancelled.
    ///
    /// - Throws: Any error; the shutdown report records it and the shutdown goes on.
    func stop() async throws
}

extension StoppableModule {
    /// The shutdown's stop timeout.
    public var stopTimeout: Duration? { nil }
}
