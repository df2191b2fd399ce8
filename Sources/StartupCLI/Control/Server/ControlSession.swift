import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves one request against the run: checks the ids it names, calls the target, and posts the answers.
struct ControlSession: Sendable {
    /// The run.
    let target: any ControlTarget
    /// The manifest as the user gave it, for messages and `hello`.
    let manifest: String

    /// Serves `request`, posting its answers to `outbox`, the final one last.
    func serve(_ request: ControlRequest, to outbox: ControlOutbox) async {
        let say: @Sendable (String) -> Void = { outbox.post(.line($0)) }
        if !request.ids.isEmpty {
            let known = await target.rows().map(\.id)
            if let error = Self.unknownIDs(request.ids, known: known, manifest: manifest) {
                return outbox.post(.error(error.message, exit: error.exit))
            }
        }
        switch request {
        case .hello:
            preconditionFailure("a connection answers hello itself, without the run")
        case .ps:
            for row in await target.rows() { outbox.post(.row(row)) }
            outbox.post(.ok(true))
        case .restart(let ids, let cascade):
            outbox.post(.ok(await target.restart(ids, cascade: cascade, say: say)))
        case .stop(let ids, let cascade):
            outbox.post(.ok(await target.stop(ids, cascade: cascade, say: say)))
        case .start(let ids):
            outbox.post(.ok(await target.start(ids, say: say)))
        case .down:
            outbox.post(.ok(await target.down(say: say)))
        case .logs(let ids, let lines, let follow):
            // Followed first, so no line falls between the kept ones and the new ones.
            let stream = follow ? target.followLogs(ids) : nil
            for line in await target.logs(ids, lines: lines) { outbox.post(.log(line)) }
            if let stream {
                for await line in stream { outbox.post(.log(line)) }
                if Task.isCancelled { return outbox.finish() }
            }
            outbox.post(.ok(true))
        case .events:
            for await event in target.events() { outbox.post(.event(event)) }
            if Task.isCancelled { return outbox.finish() }
            outbox.post(.ok(true))
        }
    }

    /// The error for the ids of `ids` that are not in `known`, each with the closest known id; `nil` when all are.
    static func unknownIDs(_ ids: [CommandID], known: [CommandID], manifest: String) -> ControlProtocolError? {
        let knownSet = Set(known)
        var unknown: [CommandID] = []
        for id in ids where !knownSet.contains(id) && !unknown.contains(id) { unknown.append(id) }
        guard !unknown.isEmpty else { return nil }
        var index = IdentifierSuggestionIndex(known.map(\.rawValue))
        let clauses = unknown.map { id in
            "unknown command \(MessageQuoting.quoted(id)) in the run of \(MessageQuoting.escaped(manifest))"
                + (index.closest(to: id.rawValue).map { " (did you mean \"\($0)\"?)" } ?? "")
        }
        return ControlProtocolError(clauses.joined(separator: "; ") + " (startup ps lists them)")
    }
}
