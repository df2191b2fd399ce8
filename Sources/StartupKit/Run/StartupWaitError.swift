import StartupSupport

/// Why ``StartupRun/wait(for:timeout:)-([CommandID],_)`` (or ``StartupRun/output(of:as:)``) gave up: the time ran
/// out, or an awaited command ended without succeeding. Its description says what holds each
/// unfinished command up, down to the cause.
///
/// ```text
/// "first-screen" not done after 400ms: waiting for "database" (running for 380ms), which "first-screen" needs through "auth-session"
/// ```
public struct StartupWaitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What ended the wait.
    ///
    /// Reasons are added as StartupKit grows (a minor version may add one): a `switch` over a
    /// reason should have a `default`, so that code written against this version keeps compiling.
    /// Most callers print the error's ``StartupWaitError/description``, which covers every reason.
    ///
    /// ```swift
    /// func isTimeOut(_ error: StartupWaitError) -> Bool {
    ///     switch error.reason {
    ///     case .timedOut: true
    ///     default: false
    ///     }
    /// }
    /// ```
    public enum Reason: Sendable, Hashable {
        /// The time was up; what held up each awaited command that had not ended.
        case timedOut(after: Duration, holdUps: [HoldUp])
        /// An awaited command failed, timed out, was skipped or cancelled.
        case commandDidNotSucceed(CommandID, CommandStatus)
        /// The plan has no command with this id; `suggestion` is the closest one.
        case unknownCommand(CommandID, suggestion: CommandID?)
        /// The command's output is not of the requested type.
        case outputTypeMismatch(CommandID, detail: String)
    }

    /// One awaited command that had not ended, and what it waited for.
    public struct HoldUp: Sendable, Hashable {
        /// The awaited command.
        public let command: CommandID
        /// The unfinished commands at the front of what it needs: running, waiting for a slot,
        /// or gates not opened. The command itself when it is one of those.
        public let blockers: [Blocker]

        /// Creates a hold-up.
        public init(command: CommandID, blockers: [Blocker]) {
            self.command = command
            self.blockers = blockers
        }
    }

    /// A command that held an awaited one up.
    public struct Blocker: Sendable, Hashable {
        /// Where a blocking command stood.
        ///
        /// States are added as StartupKit grows (a minor version may add one): a `switch` over a
        /// state should have a `default`.
        ///
        /// ```swift
        /// func isRunning(_ blocker: StartupWaitError.Blocker) -> Bool {
        ///     switch blocker.state {
        ///     case .running: true
        ///     default: false
        ///     }
        /// }
        /// ```
        public enum State: Sendable, Hashable {
            /// Running (a retry included) for this long since its first attempt started.
            case running(for: Duration, attempt: Int)
            /// Ready, waiting for a free slot.
            case waitingForSlot
            /// A gate that has not been opened.
            case gateNotOpened
        }

        /// The blocking command.
        public let command: CommandID
        /// Where it stood.
        public let state: State
        /// The commands between the awaited command and this one, the awaited command's
        /// dependency first; empty for a direct dependency or the awaited command itself.
        public let through: [CommandID]

        /// Creates a blocker.
        public init(command: CommandID, state: State, through: [CommandID]) {
            self.command = command
            self.state = state
            self.through = through
        }
    }

    /// The commands waited for.
    public let awaited: [CommandID]
    /// What ended the wait.
    public let reason: Reason

    /// Creates an error.
    public init(awaited: [CommandID], reason: Reason) {
        self.awaited = awaited
        self.reason = reason
    }

    /// The most blockers named for one awaited command; the rest are counted.
    static let blockersNamed = 5

    /// A sentence per unfinished command saying what holds it up, or the failure.
    public var description: String {
        switch reason {
        case .timedOut(let limit, let holdUps):
            return holdUps.map { describe($0, after: limit) }.joined(separator: "; ")
        case .commandDidNotSucceed(let command, let status):
            return "\(MessageQuoting.quoted(command)) did not succeed: \(status.detail ?? status.name)"
        case .unknownCommand(let command, let suggestion):
            let hint = suggestion.map { "; did you mean \(MessageQuoting.quoted($0))?" } ?? ""
            return "the plan has no command \(MessageQuoting.quoted(command))\(hint)"
        case .outputTypeMismatch(let command, let detail):
            return "the output of \(MessageQuoting.quoted(command)) \(detail)"
        }
    }

    private func describe(_ holdUp: HoldUp, after limit: Duration) -> String {
        let awaited = MessageQuoting.quoted(holdUp.command)
        var clauses = holdUp.blockers.prefix(Self.blockersNamed).map { blocker -> String in
            if blocker.command == holdUp.command { return describe(blocker.state) }
            var clause = "waiting for \(MessageQuoting.quoted(blocker.command)) (\(describe(blocker.state)))"
            if !blocker.through.isEmpty {
                clause += ", which \(awaited) needs through " + blocker.through.map { MessageQuoting.quoted($0) }.joined(separator: " and ")
            }
            return clause
        }
        if holdUp.blockers.count > Self.blockersNamed {
            clauses.append("and \(holdUp.blockers.count - Self.blockersNamed) more")
        }
        return "\(awaited) not done after \(DurationText.format(limit)): " + clauses.joined(separator: "; ")
    }

    private func describe(_ state: Blocker.State) -> String {
        switch state {
        case .running(let elapsed, let attempt):
            "running for \(DurationText.format(elapsed))" + (attempt > 1 ? ", attempt \(attempt)" : "")
        case .waitingForSlot: "ready, waiting for a free slot"
        case .gateNotOpened: "a gate not opened yet"
        }
    }
}
