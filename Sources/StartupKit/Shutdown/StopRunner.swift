import StartupSupport

/// Runs one module's stop under its timeout. Never throws: how the stop ended is the result.
enum StopRunner {
    /// Calls `module.stop()` and returns how it ended: when it returns or throws, when
    /// `timeout` has passed, or when the calling task is cancelled, whichever comes first.
    ///
    /// The stop runs in a task of its own so that a stop which ignores cancellation cannot hold
    /// up the shutdown: after a timeout or a cancellation it is cancelled and no longer waited for.
    static func stop(_ module: any StoppableModule, timeout: Duration, clock: StartedClock) async -> ModuleCallStatus {
        let outcome = OneShot<ModuleCallStatus>()
        let work = Task {
            do {
                try await module.stop()
                outcome.resolve(.succeeded)
            } catch {
                outcome.resolve(.failed(error))
            }
        }
        let status = await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do { try await clock.sleep(timeout) } catch { return }  // The stop ended first.
                    outcome.resolve(.timedOut(after: timeout))
                }
                let status = await outcome.value()
                group.cancelAll()
                return status
            }
        } onCancel: {
            outcome.resolve(.cancelled)
        }
        switch status {
        case .timedOut, .cancelled: work.cancel()
        case .succeeded, .failed: break
        }
        return status
    }
}
