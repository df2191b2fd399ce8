import Dispatch
import StartupJSON
import StartupKit
import StartupPlatform
import StartupSupport

/// Reads a manifest's JSON into a ``Manifest``, collecting every problem instead of stopping at
/// the first: unknown or duplicate keys, wrong types, durations without units, bad values, and
/// then the graph's own problems (unknown dependencies and `after` ids, cycles, duplicate ids).
struct ManifestDecoder {
    /// The keys of the top-level object.
    static let rootKeys = ["$schema", "version", "defaults", "commands"]
    /// The keys of `defaults`.
    static let defaultsKeys = ["timeout", "retries", "env", "envFile", "cwd"]
    /// The keys of a command.
    static let commandKeys = [
        "id", "summary", "dependencies", "after", "run", "estimate", "budget", "timeout", "retries",
        "optional", "onDemand", "priority", "env", "envFile", "cwd", "stop", "stopTimeout", "ready", "restart", "alive",
        "watch",
    ]
    /// Words people write for a key, mapped to the key they meant.
    static let keySynonyms = [
        "dependsOn": "dependencies", "depends_on": "dependencies", "depends": "dependencies", "deps": "dependencies",
        "requires": "dependencies", "needs": "dependencies",
        "runsAfter": "after", "runAfter": "after", "orderAfter": "after", "order_after": "after", "ordered_after": "after",
        "teardown": "stop", "shutdown": "stop", "command": "run", "cmd": "run", "script": "run", "exec": "run", "shell": "run",
        "name": "id", "description": "summary", "environment": "env", "workdir": "cwd",
        "workingDirectory": "cwd", "dir": "cwd", "retry": "retries", "optional?": "optional",
        "limit": "budget", "maxDuration": "budget", "max": "budget",
        "lazy": "onDemand", "on_demand": "onDemand", "on-demand": "onDemand",
        "healthcheck": "ready", "health": "ready", "readiness": "ready", "probe": "ready",
        "envFiles": "envFile", "env_file": "envFile", "env-file": "envFile", "envfile": "envFile", "dotenv": "envFile",
        "environmentFile": "envFile", "env_files": "envFile",
        "restartPolicy": "restart", "restart_policy": "restart", "liveness": "alive", "livenessProbe": "alive",
        "healthCheck": "alive", "stop_timeout": "stopTimeout", "stopTimeoutSec": "stopTimeout", "stopGracePeriod": "stopTimeout",
        "watchPaths": "watch", "watch_paths": "watch", "watches": "watch",
    ]

    private(set) var problems: [ManifestProblem] = []

    /// Parses and validates manifest bytes.
    ///
    /// - Parameters:
    ///   - bytes: The JSON text.
    ///   - file: The name the error gives the manifest.
    /// - Throws: ``ManifestError`` (`.invalid`) with every problem found, in document order.
    static func decode(_ bytes: [UInt8], file: String) throws(ManifestError) -> Manifest {
        let root = try DocumentError.parse(bytes, file: file)
        var decoder = ManifestDecoder()
        let manifest = decoder.manifest(from: root)
        if decoder.problems.isEmpty, let manifest {
            return manifest
        }
        throw .invalid(file: file, problems: decoder.problems)
    }

    // MARK: - Structure

    private mutating func manifest(from root: JSONElement) -> Manifest? {
        guard let members = object(root, path: "", allowed: Self.rootKeys, what: "the manifest") else { return nil }
        var version: Int?
        if let member = members["version"] {
            version = integer(member, path: "version")
            if let found = version, found != Manifest.supportedVersion {
                report(
                    member.valueLocation, "version", "unsupported version \(found); this startup reads version \(Manifest.supportedVersion)"
                )
                version = nil
            }
        } else {
            report(root.location, "", "missing \"version\"; add \"version\": \(Manifest.supportedVersion)")
        }
        // The JSON Schema an editor checks the file with; nothing else reads it.
        if let member = members["$schema"] { _ = string(member, path: "$schema") }
        let defaults = members["defaults"].map { self.defaults(from: $0) } ?? ManifestDefaults()
        var commands: [ManifestCommand] = []
        var sources: [CommandSource] = []
        if let member = members["commands"] {
            if case .array(let elements) = member.value {
                (commands, sources) = self.commands(elements)
            } else {
                report(member.valueLocation, "commands", "expected an array of commands, found \(member.value.kindName)")
            }
        } else {
            report(root.location, "", "missing \"commands\"; add \"commands\": [ ... ]")
        }
        problems += ManifestGraphCheck.problems(in: sources)
        problems += ManifestProbeAddressCheck.problems(in: sources.compactMap(\.probe))
        guard let version else { return nil }
        return Manifest(version: version, defaults: defaults, commands: commands)
    }

    private mutating func defaults(from member: JSONMember) -> ManifestDefaults {
        let element = JSONElement(value: member.value, location: member.valueLocation)
        guard let members = object(element, path: "defaults", allowed: Self.defaultsKeys, what: "defaults") else {
            return ManifestDefaults()
        }
        return ManifestDefaults(
            timeout: members["timeout"].flatMap { timeout($0, path: "defaults.timeout") },
            retries: members["retries"].flatMap { retries($0, path: "defaults.retries") },
            environment: members["env"].flatMap { environment($0, path: "defaults.env") } ?? [:],
            environmentFiles: members["envFile"].flatMap { environmentFiles($0, path: "defaults.envFile") } ?? [],
            workingDirectory: members["cwd"].flatMap { workingDirectory($0, path: "defaults.cwd") })
    }

    /// The commands of the `commands` array, and where each is written. A long array is cut into one run of
    /// elements per processor, each decoded on its own thread by a decoder of its own, whose problems are added
    /// to this one's in order.
    private mutating func commands(_ elements: [JSONElement]) -> ([ManifestCommand], [CommandSource]) {
        let parts = min(ProcessorCount.online, elements.count / Self.commandsPerPart)
        guard parts > 1 else { return Self.commands(elements, elements.indices, decoder: &self) }
        let decoded = Locked([Int: ([ManifestCommand], [CommandSource], [ManifestProblem])]())
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var decoder = ManifestDecoder()
            let run = (elements.count * part / parts)..<(elements.count * (part + 1) / parts)
            let (commands, sources) = Self.commands(elements, run, decoder: &decoder)
            decoded.withLock { $0[part] = (commands, sources, decoder.problems) }
        }
        var commands: [ManifestCommand] = []
        var sources: [CommandSource] = []
        commands.reserveCapacity(elements.count)
        sources.reserveCapacity(elements.count)
        for part in 0..<parts {
            guard let (someCommands, someSources, someProblems) = decoded.withLock({ $0[part] }) else { continue }
            commands += someCommands
            sources += someSources
            problems += someProblems
        }
        return (commands, sources)
    }

    /// Fewest commands a thread decodes: fewer are not worth the hand-off.
    private static let commandsPerPart = 256

    /// The commands of `elements[run]`, decoded by `decoder`.
    private static func commands(
        _ elements: [JSONElement], _ run: Range<Int>, decoder: inout ManifestDecoder
    ) -> ([ManifestCommand], [CommandSource]) {
        var commands: [ManifestCommand] = []
        var sources: [CommandSource] = []
        commands.reserveCapacity(run.count)
        sources.reserveCapacity(run.count)
        for index in run {
            if let (command, source) = decoder.command(from: elements[index], index: index) {
                commands.append(command)
                sources.append(source)
            }
        }
        return (commands, sources)
    }

    /// The command an element of `commands` describes, and where its parts are written; `nil` when it is not usable.
    /// Its members are sorted into their keys in one pass, reporting unknown and repeated keys (the first stays).
    private mutating func command(from element: JSONElement, index: Int) -> (ManifestCommand, CommandSource)? {
        var writtenID: String?
        if case .object(let list) = element.value, case .string(let id)? = list.first(where: { $0.key == "id" })?.value, !id.isEmpty {
            writtenID = id
        }
        // Built only for a message: every message about the command's keys names it.
        let path = { CommandSource.path(index: index, id: writtenID) }
        guard case .object(let list) = element.value else {
            report(element.location, path(), "expected a command as an object, found \(element.value.kindName)")
            return nil
        }
        var members = CommandMembers()
        for member in list {
            switch members.keep(member) {
            case .kept: continue
            case .repeated: reportRepeatedKey(member, path: path())
            case .unknown: reportUnknownKey(member, path: path(), allowed: Self.commandKeys)
            }
        }
        guard let idMember = members.id else {
            report(element.location, path(), "missing \"id\"")
            return nil
        }
        guard let id = identifier(idMember.value, at: idMember.valueLocation, path: path() + ".id") else { return nil }

        let dependencies = members.dependencies.map { commandIDs($0, path: path() + ".dependencies") } ?? []
        let after = members.after.map { commandIDs($0, path: path() + ".after") } ?? []
        let command = ManifestCommand(
            id: id,
            summary: members.summary.flatMap { string($0, path: path() + ".summary") },
            dependencies: dependencies.map(\.id),
            after: after.map(\.id),
            run: members.run.flatMap {
                shellLine($0, path: path() + ".run", ifEmpty: "leave \"run\" out to make the command a milestone")
            },
            estimate: members.estimate.flatMap { duration($0, path: path() + ".estimate") },
            budget: members.budget.flatMap { budget($0, path: path() + ".budget") },
            timeout: members.timeout.flatMap { timeout($0, path: path() + ".timeout") },
            retries: members.retries.flatMap { retries($0, path: path() + ".retries") },
            isOptional: members.optional.flatMap { boolean($0, path: path() + ".optional") } ?? false,
            isOnDemand: members.onDemand.flatMap { boolean($0, path: path() + ".onDemand") } ?? false,
            priority: members.priority.flatMap { priority($0, path: path() + ".priority") } ?? .normal,
            environment: members.env.flatMap { environment($0, path: path() + ".env") } ?? [:],
            environmentFiles: members.envFile.flatMap { environmentFiles($0, path: path() + ".envFile") } ?? [],
            workingDirectory: members.cwd.flatMap { workingDirectory($0, path: path() + ".cwd") },
            stop: members.stop.flatMap {
                shellLine($0, path: path() + ".stop", ifEmpty: "leave \"stop\" out when nothing needs undoing")
            },
            ready: members.ready.flatMap { readiness($0, path: path() + ".ready", hasRun: members.run != nil) },
            restart: members.restart.flatMap { restartPolicy($0, path: path() + ".restart", isService: members.ready != nil) },
            alive: members.alive.flatMap { liveness($0, path: path() + ".alive", isService: members.ready != nil) },
            stopTimeout: members.stopTimeout.flatMap { stopTimeout($0, path: path() + ".stopTimeout", hasStop: members.stop != nil) },
            watch: members.watch.flatMap { watch($0, path: path() + ".watch", hasRun: members.run != nil) })
        let source = CommandSource(
            id: command.id, dependencies: command.dependencies, manifestIndex: index, idLocation: idMember.valueLocation,
            dependencyIndexes: dependencies.map(\.index), dependencyLocations: dependencies.map(\.location),
            dependenciesLocation: members.dependencies?.keyLocation ?? idMember.keyLocation,
            after: command.after, afterIndexes: after.map(\.index), afterLocations: after.map(\.location),
            afterLocation: members.after?.keyLocation ?? idMember.keyLocation,
            probe: members.ready.flatMap { probeSource(of: command, ready: $0, path: path()) })
        return (command, source)
    }

    /// The ids of a `"dependencies"` or `"after"` array, each with its position in the array and
    /// where it is written; every element that is not a valid id, or a value that is not an
    /// array, is reported (a duration given as `"after"` gets a hint at the readiness probe of
    /// that name).
    private mutating func commandIDs(
        _ member: JSONMember, path: @autoclosure () -> String
    ) -> [(id: CommandID, index: Int, location: JSONLocation)] {
        guard case .array(let elements) = member.value else {
            var hint = ""
            if member.key == "after", case .string(let text) = member.value, DurationText.parse(text) != nil {
                hint = "; to wait that long for a service, write \"ready\": {\"after\": \(MessageQuoting.quoted(text))}"
            }
            report(member.valueLocation, path(), "expected an array of command ids, found \(member.value.kindName)\(hint)")
            return []
        }
        var ids: [(id: CommandID, index: Int, location: JSONLocation)] = []
        ids.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            if let id = identifier(element.value, at: element.location, path: "\(path())[\(position)]") {
                ids.append((id, position, element.location))
            }
        }
        return ids
    }

    /// Where `command`'s `tcp` or `http` probe is written, for the check that no two services probe one address.
    private func probeSource(of command: ManifestCommand, ready: JSONMember, path: String) -> ManifestProbeAddressCheck.ProbeSource? {
        let host: String
        let port: Int
        switch command.ready?.probe {
        case .tcp(let probeHost, let probePort)?, .http(let probeHost, let probePort, _)?: (host, port) = (probeHost, probePort)
        default: return nil
        }
        guard case .object(let list) = ready.value,
            let written = list.first(where: { $0.key == "tcp" || $0.key == "http" }),
            case .string(let text) = written.value
        else { return nil }
        return ManifestProbeAddressCheck.ProbeSource(
            commandPath: path, key: written.key, written: text, host: host, port: port, location: written.valueLocation)
    }

    // MARK: - Objects

    /// The members of an object by key, reporting unknown and repeated keys; `nil` if not an object.
    mutating func object(_ element: JSONElement, path: @autoclosure () -> String, allowed: [String], what: String) -> JSONMembers? {
        guard case .object(let members) = element.value else {
            report(element.location, path(), "expected \(what) as an object, found \(element.value.kindName)")
            return nil
        }
        var known: [JSONMember] = []
        known.reserveCapacity(members.count)
        for member in members {
            if allowed.contains(member.key) {
                known.append(member)
            } else {
                reportUnknownKey(member, path: path(), allowed: allowed)
            }
        }
        // Problems are put in document order afterwards, so reporting duplicates after unknown keys reorders nothing.
        return self.members(known, path: path())
    }

    /// Reports a key that is not one of `allowed`, with the key meant where it can tell.
    private mutating func reportUnknownKey(_ member: JSONMember, path: String, allowed: [String]) {
        let key = MessageQuoting.escaped(member.key)
        let meant =
            Self.keySynonyms[member.key].flatMap { allowed.contains($0) ? $0 : nil }
            ?? IdentifierSuggestion.closest(to: member.key, in: allowed)
        let hint = meant.map { " (did you mean \"\($0)\"?)" } ?? ""
        report(
            member.keyLocation, path.isEmpty ? key : "\(path).\(key)",
            "unknown key \(MessageQuoting.quoted(member.key))\(hint); allowed keys: " + allowed.joined(separator: ", "))
    }

    /// Records a problem.
    mutating func report(_ location: JSONLocation, _ path: String, _ message: String) {
        problems.append(ManifestProblem(line: location.line, column: location.column, path: path, message: message))
    }
}

/// A decoded command with where its parts were written, for the graph check's messages.
struct CommandSource: Sendable {
    let id: CommandID
    let dependencies: [CommandID]
    let manifestIndex: Int
    let idLocation: JSONLocation
    /// For each of `command.dependencies`, its position in the written array and its place.
    let dependencyIndexes: [Int]
    let dependencyLocations: [JSONLocation]
    let dependenciesLocation: JSONLocation
    /// The commands it runs after, each with its position in the written `"after"` array and its
    /// place, and where the key is written (the id's key when it has none).
    let after: [CommandID]
    let afterIndexes: [Int]
    let afterLocations: [JSONLocation]
    let afterLocation: JSONLocation
    /// The command's `tcp` or `http` readiness probe, if it has one.
    let probe: ManifestProbeAddressCheck.ProbeSource?

    /// `commands[4] ("database")`: how messages name the command.
    var path: String { Self.path(index: manifestIndex, id: id.rawValue) }

    /// `commands[4] ("database")`, or `commands[4]` for a command without a usable id.
    static func path(index: Int, id: String?) -> String {
        "commands[\(index)]" + (id.map { " (\(MessageQuoting.quoted($0)))" } ?? "")
    }
}
