import StartupSupport

/// Why a move by hand on a service (``StartupRun/restartService(_:)``,
/// ``StartupRun/stopService(_:)``, ``StartupRun/startService(_:)``) was not carried out.
public struct ServiceControlError: Error, Sendable, CustomStringConvertible {
    /// What kind of refusal or failure it is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case unknownCommand, notAService, neverReady, notReadyAgain, stoppedByHand, notRunning
        }

        private let value: Value

        /// The plan has no command with this id.
        public static let unknownCommand = Code(value: .unknownCommand)
        /// The command is not a service.
        public static let notAService = Code(value: .notAService)
        /// The service never became ready in this run (it failed, was skipped or cancelled).
        public static let neverReady = Code(value: .neverReady)
        /// Its new incarnation ended before it was ready; it stays stopped until started again.
        public static let notReadyAgain = Code(value: .notReadyAgain)
        /// It was stopped by hand (``StartupRun/stopService(_:)``) before it was ready again.
        public static let stoppedByHand = Code(value: .stoppedByHand)
        /// The run is shutting down, or the service has ended for good.
        public static let notRunning = Code(value: .notRunning)

        /// The code's name, as in `notReadyAgain`.
        public var description: String { "\(value)" }
    }

    /// What kind of refusal or failure it is.
    public let code: Code
    /// The service (or the unknown id) asked about.
    public let service: CommandID
    /// For ``Code/unknownCommand``, the plan's closest id.
    public let suggestion: CommandID?
    /// For ``Code/neverReady``, how the service ended; for ``Code/notReadyAgain``, why.
    public let underlying: (any Error)?

    init(_ code: Code, service: CommandID, suggestion: CommandID? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.service = service
        self.suggestion = suggestion
        self.underlying = underlying
    }

    /// A sentence naming the service and what stood in the way.
    public var description: String {
        let name = MessageQuoting.quoted(service)
        switch code {
        case .unknownCommand:
            return "the plan has no command \(name)" + (suggestion.map { "; did you mean \(MessageQuoting.quoted($0))?" } ?? "")
        case .notAService: return "\(name) is a command, not a service"
        case .neverReady: return "\(name) never became ready" + (underlying.map { ": \($0)" } ?? "")
        case .notReadyAgain: return "\(name) was not ready again" + (underlying.map { ": \($0)" } ?? "") + "; it stays stopped"
        case .stoppedByHand: return "\(name) was stopped by hand before it was ready"
        default: return "\(name) is not running: the run is shutting down, or it has ended for good"
        }
    }
}
