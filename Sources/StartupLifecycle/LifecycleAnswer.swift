import StartupKit

/// How a ``LifecycleRequest`` went: which module answered it and how, or that none did.
///
/// Complete: a request is answered by one module or by none. No case will be added before a major
/// version, so a `switch` over it may list every case without a `default`.
public enum LifecycleAnswer<Response: Sendable>: Sendable {
    /// The module attached to the command `module` answered with `response`; no module after
    /// it in the chain was asked.
    case handled(Response, by: CommandID)
    /// Every handler passed (or there was none).
    case unhandled

    /// The response, or `nil` if no module answered.
    public var response: Response? {
        if case .handled(let response, _) = self { return response }
        return nil
    }

    /// The command whose module answered, or `nil` if none did.
    public var handler: CommandID? {
        if case .handled(_, let module) = self { return module }
        return nil
    }
}
