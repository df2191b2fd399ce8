/// A ready service as a participant of the shutdown walk: its stop cancels the service (after the
/// stop of a module the app attached to the same command, if any) and waits until it has ended.
struct ServiceStop: StoppableModule {
    let service: ServiceSupervisor
    /// A module the app attached to the service's command; it stops first.
    let attached: (any StoppableModule)?
    let stopTimeout: Duration?

    func stop() async throws {
        var attachedError: (any Error)?
        do { try await attached?.stop() } catch { attachedError = error }
        try await service.stop()
        if let attachedError { throw attachedError }
    }
}
