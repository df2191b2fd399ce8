import StartupJSON
import StartupKit
import StartupSupport

/// Reads a saved run report back into a ``SavedRun``, collecting every problem: wrong types,
/// missing keys, unknown statuses, invalid ids, negative times, and a graph that does not hold
/// together. Keys it does not know are ignored, so later versions' reports still read.
///
/// Reports saved before `skipReason` and `timeoutMs` were written still read: a skipped
/// command's reason is traced through its dependencies, a timeout is read from `detail`.
struct ReportDecoder: JSONChecking {
    private(set) var problems: [DocumentProblem] = []

    /// Parses and checks report bytes.
    ///
    /// - Throws: ``ReportError`` (`.invalid`) with every problem found, in document order.
    static func decode(_ bytes: [UInt8], file: String) throws(ReportError) -> SavedRun {
        let root = try DocumentError.parse(bytes, file: file)
        var decoder = ReportDecoder()
        let run = decoder.run(from: root)
        if decoder.problems.isEmpty, let run { return run }
        throw .invalid(file: file, problems: decoder.problems)
    }

    /// Records a problem.
    mutating func report(_ location: JSONLocation, _ path: String, _ message: String) {
        problems.append(DocumentProblem(line: location.line, column: location.column, path: path, message: message))
    }

    // MARK: - Structure

    /// One command as written, before statuses that name other commands are resolved.
    private struct CommandDraft {
        var id: CommandID
        var status: String
        var startOffset: Duration?
        var endOffset: Duration?
        var attempts: Int
        var slack: Duration
        var isOptional: Bool
        var isOnCriticalPath: Bool?
        var detail: String?
        var skipReason: SkipReason?
        var timeout: Duration?
        var dependencies: [CommandID]
        var budget: Duration?
        var isService: Bool
        var ranOnBlockingPool: Bool
        var effectivePriority: CommandPriority?
        var priority: CommandPriority?
        var estimate: CommandEstimate?
        var module: String?
        var after: [CommandID]

        /// From start to end; zero if it never started.
        var duration: Duration {
            guard let startOffset, let endOffset else { return .zero }
            return endOffset - startOffset
        }
    }

    private mutating func run(from root: JSONElement) -> SavedRun? {
        guard case .object(let list) = root.value else {
            report(
                root.location, "",
                "expected a run report (an object with \"status\", \"wallMs\" and \"commands\", as startup run saves it), found \(root.value.kindName)"
            )
            return nil
        }
        let members = self.members(list, path: "")
        let status = required(members, "status", in: root, path: "").flatMap { member in
            choice(member, path: "status", names: StartupReport.Status.allCases.map(\.rawValue)).flatMap(
                StartupReport.Status.init(rawValue:))
        }
        let wallTime = required(members, "wallMs", in: root, path: "").flatMap { milliseconds($0, path: "wallMs") }
        var drafts: [CommandDraft] = []
        var commandsComplete = true
        if let member = members["commands"] {
            if case .array(let elements) = member.value {
                for (index, element) in elements.enumerated() {
                    if let draft = command(from: element, index: index) { drafts.append(draft) } else { commandsComplete = false }
                }
            } else {
                report(member.valueLocation, "commands", "expected an array of commands, found \(member.value.kindName)")
                commandsComplete = false
            }
        } else {
            report(root.location, "", "missing \"commands\"; is this a report saved by startup run?")
            commandsComplete = false
        }
        let criticalPath = required(members, "criticalPath", in: root, path: "").flatMap { identifiers($0, path: "criticalPath") }
        let criticalPathDuration = required(members, "criticalPathMs", in: root, path: "").flatMap {
            milliseconds($0, path: "criticalPathMs")
        }
        let settings = self.settings(from: members)

        if let criticalPath, let member = members["criticalPath"], commandsComplete {
            let known = Set(drafts.map(\.id))
            for id in criticalPath where !known.contains(id) {
                report(member.valueLocation, "criticalPath", "unknown command \(MessageQuoting.quoted(id.rawValue))")
            }
        }
        guard commandsComplete, graphHolds(drafts, location: members["commands"]?.valueLocation),
            let status, let wallTime, let criticalPath, let criticalPathDuration, let settings
        else { return nil }
        let onPath = Set(criticalPath)
        let statuses = resolvedStatuses(drafts)
        let commands = drafts.indices.map { position in
            let draft = drafts[position]
            return CommandReport(
                id: draft.id, status: statuses[position], startOffset: draft.startOffset, endOffset: draft.endOffset,
                attempts: draft.attempts, isOptional: draft.isOptional, slack: draft.slack,
                isOnCriticalPath: draft.isOnCriticalPath ?? onPath.contains(draft.id), dependencies: draft.dependencies,
                isService: draft.isService, ranOnBlockingPool: draft.ranOnBlockingPool, effectivePriority: draft.effectivePriority,
                priority: draft.priority, estimate: draft.estimate, module: draft.module, after: draft.after)
        }
        var budgets: [CommandID: Duration] = [:]
        for draft in drafts { if let budget = draft.budget { budgets[draft.id] = budget } }
        var runSettings = settings
        runSettings.budgets = budgets
        let report = StartupReport(
            status: status, commands: commands, wallTime: wallTime, criticalPath: criticalPath,
            criticalPathDuration: criticalPathDuration)
        return SavedRun(report: report, settings: runSettings)
    }

    /// The run's settings at the top of the report; every key may be absent or `null`.
    private mutating func settings(from members: JSONMembers) -> RunSettings? {
        let problemsBefore = problems.count
        let settings = RunSettings(
            manifestPath: present(members, "manifest").flatMap { text($0, path: "manifest") },
            isSimulated: present(members, "simulated").flatMap { boolean($0, path: "simulated") } ?? false,
            jobs: present(members, "jobs").flatMap { positiveInteger($0, path: "jobs") },
            wallBudget: present(members, "wallBudgetMs").flatMap { milliseconds($0, path: "wallBudgetMs") })
        return problems.count == problemsBefore ? settings : nil
    }

    private mutating func command(from element: JSONElement, index: Int) -> CommandDraft? {
        var path = "commands[\(index)]"
        guard case .object(let list) = element.value else {
            report(element.location, path, "expected a command as an object, found \(element.value.kindName)")
            return nil
        }
        if case .string(let id)? = list.first(where: { $0.key == "id" })?.value, !id.isEmpty { path += " (\(MessageQuoting.quoted(id)))" }
        let problemsBefore = problems.count
        let members = self.members(list, path: path)
        let id = required(members, "id", in: element, path: path).flatMap { identifier($0.value, at: $0.valueLocation, path: path + ".id") }
        let status = required(members, "status", in: element, path: path).flatMap {
            choice($0, path: path + ".status", names: CommandStatus.names)
        }
        _ = required(members, "durationMs", in: element, path: path).flatMap { milliseconds($0, path: path + ".durationMs") }
        let dependencies = required(members, "dependencies", in: element, path: path).flatMap {
            identifiers($0, path: path + ".dependencies")
        }
        let startOffset = present(members, "startMs").flatMap { milliseconds($0, path: path + ".startMs") }
        let endOffset = present(members, "endMs").flatMap { milliseconds($0, path: path + ".endMs") }
        if (present(members, "startMs") == nil) != (present(members, "endMs") == nil) {
            report(element.location, path, "\"startMs\" and \"endMs\" must both be numbers or both be null")
        } else if let startOffset, let endOffset, endOffset < startOffset {
            report(members["endMs"]?.valueLocation ?? element.location, path + ".endMs", "ends before it starts")
        }
        let draft = CommandDraft(
            id: id ?? "", status: status ?? "",
            startOffset: startOffset, endOffset: endOffset,
            attempts: present(members, "attempts").flatMap { count($0, path: path + ".attempts") } ?? (startOffset == nil ? 0 : 1),
            slack: present(members, "slackMs").flatMap { milliseconds($0, path: path + ".slackMs") } ?? .zero,
            isOptional: present(members, "optional").flatMap { boolean($0, path: path + ".optional") } ?? false,
            isOnCriticalPath: present(members, "critical").flatMap { boolean($0, path: path + ".critical") },
            detail: present(members, "detail").flatMap { text($0, path: path + ".detail") },
            skipReason: present(members, "skipReason").flatMap { skipReason($0, path: path + ".skipReason") },
            timeout: present(members, "timeoutMs").flatMap { milliseconds($0, path: path + ".timeoutMs") },
            dependencies: dependencies ?? [],
            budget: present(members, "budgetMs").flatMap { milliseconds($0, path: path + ".budgetMs") },
            isService: present(members, "service").flatMap { boolean($0, path: path + ".service") } ?? false,
            ranOnBlockingPool: present(members, "blocking").flatMap { boolean($0, path: path + ".blocking") } ?? false,
            effectivePriority: present(members, "effectivePriority").flatMap { priority($0, path: path + ".effectivePriority") },
            priority: present(members, "priority").flatMap { priority($0, path: path + ".priority") },
            estimate: estimate(members, path: path),
            module: present(members, "module").flatMap { text($0, path: path + ".module") },
            after: present(members, "after").flatMap { identifiers($0, path: path + ".after") } ?? [])
        return problems.count == problemsBefore ? draft : nil
    }

    /// `estimateMs`, learned from `estimateLaunches` launches where that is given, else declared.
    private mutating func estimate(_ members: JSONMembers, path: String) -> CommandEstimate? {
        let launches = present(members, "estimateLaunches").flatMap { positiveInteger($0, path: path + ".estimateLaunches") }
        guard let duration = present(members, "estimateMs").flatMap({ milliseconds($0, path: path + ".estimateMs") }) else {
            return nil
        }
        return launches.map { .learned(duration, launches: $0) } ?? .declared(duration)
    }

    private mutating func skipReason(_ member: JSONMember, path: String) -> SkipReason? {
        guard case .object(let list) = member.value else {
            report(
                member.valueLocation, path, "expected an object with \"failedCommand\" and \"dependency\", found \(member.value.kindName)")
            return nil
        }
        let element = JSONElement(value: member.value, location: member.valueLocation)
        let members = self.members(list, path: path)
        let failed = required(members, "failedCommand", in: element, path: path)
            .flatMap { identifier($0.value, at: $0.valueLocation, path: path + ".failedCommand") }
        let dependency = required(members, "dependency", in: element, path: path)
            .flatMap { identifier($0.value, at: $0.valueLocation, path: path + ".dependency") }
        guard let failed, let dependency else { return nil }
        return SkipReason(failedCommand: failed, dependency: dependency)
    }

    /// Whether the commands form a graph (no duplicate ids, unknown dependencies or cycles);
    /// reports each problem if not.
    private mutating func graphHolds(_ drafts: [CommandDraft], location: JSONLocation?) -> Bool {
        var builder = StartupPlanBuilder()
        for draft in drafts { builder.add(draft.id, dependsOn: draft.dependencies, after: draft.after) { _ in } }
        do {
            _ = try builder.build()
            return true
        } catch {
            for issue in error.issues {
                problems.append(
                    DocumentProblem(line: location?.line, column: location?.column, path: "commands", message: issue.description))
            }
            return false
        }
    }

    // MARK: - Statuses

    /// Each command's status with its payload: a failure's message, a skip's reason, a timeout's
    /// limit, taken from the keys a report writes or, in older reports, from `detail` and the
    /// dependencies' statuses.
    private func resolvedStatuses(_ drafts: [CommandDraft]) -> [CommandStatus] {
        var positions: [CommandID: Int] = [:]
        for (position, draft) in drafts.enumerated() { positions[draft.id] = position }
        /// The first dependency of a skipped command that did not succeed.
        func blocker(of position: Int) -> CommandID? {
            drafts[position].dependencies.first { positions[$0].map { drafts[$0].status != "succeeded" } ?? false }
        }
        return drafts.indices.map { position in
            let draft = drafts[position]
            switch draft.status {
            case "succeeded": return .succeeded
            case "failed": return .failed(RecordedError(message: draft.detail ?? "failed"))
            case "timedOut":
                let written = draft.detail.flatMap { $0.hasPrefix("timed out after ") ? DurationText.parse(String($0.dropFirst(16))) : nil }
                return .timedOut(after: draft.timeout ?? written ?? draft.duration)
            case "skipped":
                if let reason = draft.skipReason { return .skipped(reason) }
                guard let dependency = blocker(of: position) else {
                    return .skipped(SkipReason(failedCommand: draft.id, dependency: draft.id))
                }
                var root = dependency
                var steps = 0
                while let next = positions[root].flatMap({ drafts[$0].status == "skipped" ? blocker(of: $0) : nil }), steps < drafts.count {
                    root = next
                    steps += 1
                }
                return .skipped(SkipReason(failedCommand: root, dependency: dependency))
            case "notRequested": return .notRequested
            default: return .cancelled
            }
        }
    }

    // MARK: - Values

    private mutating func count(_ member: JSONMember, path: String) -> Int? {
        guard case .number(let number) = member.value, let value = number.integerValue, value >= 0 else {
            report(member.valueLocation, path, "expected a whole number of at least 0, found \(member.value.kindName)")
            return nil
        }
        return value
    }

    private mutating func positiveInteger(_ member: JSONMember, path: String) -> Int? {
        guard case .number(let number) = member.value, let value = number.integerValue, value > 0 else {
            report(member.valueLocation, path, "expected a whole number of at least 1 or null, found \(member.value.kindName)")
            return nil
        }
        return value
    }

    /// One of `names`, or `nil` after reporting what was found instead.
    private mutating func choice(_ member: JSONMember, path: String, names: [String]) -> String? {
        if case .string(let text) = member.value, names.contains(text) { return text }
        let found = if case .string(let text) = member.value { MessageQuoting.quoted(text) } else { member.value.kindName }
        report(member.valueLocation, path, "expected one of " + names.joined(separator: ", ") + ", found \(found)")
        return nil
    }
}
