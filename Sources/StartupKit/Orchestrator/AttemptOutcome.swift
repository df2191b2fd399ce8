/// What one attempt of a command came to.
enum AttemptOutcome: Sendable {
    /// The command returned (its output is already in the run's output store).
    case succeeded
    /// The command threw.
    case threw(any Error)
    /// The command outlived its timeout and was cancelled; `abandoned` if it then did not
    /// return within the grace and was left running.
    case timedOut(Duration, abandoned: Bool)
}
