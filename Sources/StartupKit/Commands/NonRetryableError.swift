/// An error that no retry or restart can cure, such as a port already taken by another process:
/// the orchestrator neither retries the attempt that threw it (whatever ``RetryPolicy`` says) nor
/// restarts the service that threw it (whatever ``RestartPolicy`` says).
public protocol NonRetryableError: Error {}
