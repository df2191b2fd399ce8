import StartupKit

/// Reads a saved run report into a ``RunRecord``, collecting every problem: wrong types, missing
/// keys, unknown statuses, negative times, and a graph that does not hold together. Keys it does
/// not know are ignored, so later versions' reports still read.
struct RunRecordDecoder {
    private(set) var problems: [ManifestProblem] = []

    /// Parses and checks report bytes.
    ///
    /// - Throws: ``RunRecordError`` (`.invalid`) with every problem found, in document order.
    static func decode(_ bytes: [UInt8], file: String) throws(RunRecordError) -> RunRecord {
        let root: JSONElement
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw RunRecordError(code: .invalid, file: file, problems: [ManifestProblem(
                line: error.location.line, column: error.location.column, path: "", message: "invalid JSON: \(error.message)")])
        }
        var decoder = RunRecordDecoder()
        let record = decoder.record(from: root)
        if decoder.problems.isEmpty, let record { return record }
        let inDocumentOrder = decoder.problems.enumerated().sorted { lhs, rhs in
            (lhs.element.line ?? .max, lhs.element.column ?? 0, lhs.offset) < (rhs.element.line ?? .max, rhs.element.column ?? 0, rhs.offset)
        }
        throw RunRecordError(code: .invalid, file: file, problems: inDocumentOrder.map(\.element))
    }

    // MARK: - Structure

    private mutating func record(from root: JSONElement) -> RunRecord? {
        guard case .object(let list) = root.value else {
            report(root.location, "", "expected a run report (an object with \"status\", \"wallMs\" and \"commands\", as startup run saves it), found \(root.value.kindName)")
            return nil
        }
        let members = self.members(list, path: "")
        let status = required(members, "status", in: root, path: "").flatMap {
            choice($0, path: "status", from: StartupReport.Status.self, names: ["succeeded", "failed", "cancelled"])
        }
        let wallTime = required(members, "wallMs", in: root, path: "").flatMap { milliseconds($0, path: "wallMs") }
        var commands: [RunRecordCommand] = []
        var commandsComplete = true
        if let member = members["commands"] {
            if case .array(let elements) = member.value {
                for (index, element) in elements.enumerated() {
                    if let command = command(from: element, index: index) { commands.append(command) } else { commandsComplete = false }
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
        let criticalPathDuration = required(members, "criticalPathMs", in: root, path: "").flatMap { milliseconds($0, path: "criticalPathMs") }
        let manifest = present(members, "manifest").flatMap { string($0, path: "manifest") }
        let isSimulated = present(members, "simulated").flatMap { boolean($0, path: "simulated") }
        let jobs = present(members, "jobs").flatMap { positiveInteger($0, path: "jobs") }
        let wallBudget = present(members, "wallBudgetMs").flatMap { milliseconds($0, path: "wallBudgetMs") }

        let known = Set(commands.map(\.id))
        if let criticalPath, let member = members["criticalPath"], commandsComplete {
            for id in criticalPath where !known.contains(id) {
                report(member.valueLocation, "criticalPath", "unknown command \(MessageQuoting.quoted(id))")
            }
        }
        if commandsComplete {
            graphProblems(commands, location: members["commands"]?.valueLocation)
        }
        guard let status, let wallTime, let criticalPath, let criticalPathDuration, commandsComplete else { return nil }
        let onPath = Set(criticalPath)
        if members["commands"].map(criticalFlagsMissing) ?? false {
            for index in commands.indices { commands[index].isOnCriticalPath = onPath.contains(commands[index].id) }
        }
        return RunRecord(status: status, wallTime: wallTime, commands: commands, criticalPath: criticalPath,
                         criticalPathDuration: criticalPathDuration, manifest: manifest,
                         isSimulated: isSimulated ?? false, jobs: jobs, wallBudget: wallBudget)
    }

    private mutating func command(from element: JSONElement, index: Int) -> RunRecordCommand? {
        var path = "commands[\(index)]"
        guard case .object(let list) = element.value else {
            report(element.location, path, "expected a command as an object, found \(element.value.kindName)")
            return nil
        }
        if case .string(let id)? = list.first(where: { $0.key == "id" })?.value, !id.isEmpty { path += " (\(MessageQuoting.quoted(id)))" }
        let members = self.members(list, path: path)
        let id = required(members, "id", in: element, path: path).flatMap { identifier($0.value, at: $0.valueLocation, path: path + ".id") }
        let status = required(members, "status", in: element, path: path).flatMap {
            choice($0, path: path + ".status", from: RecordedStatus.self, names: RecordedStatus.allCases.map(\.rawValue))
        }
        let duration = required(members, "durationMs", in: element, path: path).flatMap { milliseconds($0, path: path + ".durationMs") }
        let dependencies = required(members, "dependencies", in: element, path: path).flatMap { identifiers($0, path: path + ".dependencies") }
        let startOffset = present(members, "startMs").flatMap { milliseconds($0, path: path + ".startMs") }
        let endOffset = present(members, "endMs").flatMap { milliseconds($0, path: path + ".endMs") }
        let attempts = present(members, "attempts").flatMap { count($0, path: path + ".attempts") }
        let slack = present(members, "slackMs").flatMap { milliseconds($0, path: path + ".slackMs") }
        let isOptional = present(members, "optional").flatMap { boolean($0, path: path + ".optional") }
        let critical = present(members, "critical").flatMap { boolean($0, path: path + ".critical") }
        let detail = present(members, "detail").flatMap { string($0, path: path + ".detail") }
        let budget = present(members, "budgetMs").flatMap { milliseconds($0, path: path + ".budgetMs") }
        if (startOffset == nil) != (endOffset == nil) {
            report(element.location, path, "\"startMs\" and \"endMs\" must both be numbers or both be null")
        } else if let startOffset, let endOffset, endOffset < startOffset {
            report(members["endMs"]?.valueLocation ?? element.location, path + ".endMs", "ends before it starts")
        }
        guard let id, let status, let duration, let dependencies else { return nil }
        return RunRecordCommand(
            id: id, status: status, startOffset: startOffset, endOffset: endOffset, duration: duration,
            attempts: attempts ?? (startOffset == nil ? 0 : 1), slack: slack ?? .zero,
            isOptional: isOptional ?? false, isOnCriticalPath: critical ?? false,
            detail: detail, dependencies: dependencies, budget: budget)
    }

    private func criticalFlagsMissing(_ member: JSONMember) -> Bool {
        guard case .array(let elements) = member.value else { return false }
        return elements.contains { element in
            guard case .object(let list) = element.value else { return false }
            return !list.contains { $0.key == "critical" }
        }
    }

    private mutating func graphProblems(_ commands: [RunRecordCommand], location: JSONLocation?) {
        let record = RunRecord(status: .succeeded, wallTime: .zero, commands: commands, criticalPath: [], criticalPathDuration: .zero)
        do {
            _ = try record.makePlan()
        } catch {
            for issue in error.issues {
                problems.append(ManifestProblem(line: location?.line, column: location?.column, path: "commands", message: issue.description))
            }
        }
    }

    // MARK: - Members

    /// The members by key, reporting repeated keys; unknown keys are left alone.
    private mutating func members(_ list: [JSONMember], path: String) -> [String: JSONMember] {
        var byKey: [String: JSONMember] = [:]
        for member in list {
            if byKey[member.key] != nil {
                let key = MessageQuoting.escaped(member.key)
                report(member.keyLocation, path.isEmpty ? key : "\(path).\(key)", "duplicate key \(MessageQuoting.quoted(member.key))")
            } else {
                byKey[member.key] = member
            }
        }
        return byKey
    }

    /// A required member, or `nil` after reporting that it is missing.
    private mutating func required(_ members: [String: JSONMember], _ key: String, in element: JSONElement, path: String) -> JSONMember? {
        guard let member = members[key] else {
            report(element.location, path, "missing \"\(key)\"")
            return nil
        }
        return member
    }

    /// An optional member; `nil` when absent or `null`.
    private func present(_ members: [String: JSONMember], _ key: String) -> JSONMember? {
        guard let member = members[key] else { return nil }
        if case .null = member.value { return nil }
        return member
    }

    // MARK: - Values

    private mutating func milliseconds(_ member: JSONMember, path: String) -> Duration? {
        guard case .number(let number) = member.value else {
            report(member.valueLocation, path, "expected milliseconds as a number, found \(member.value.kindName)")
            return nil
        }
        let value = number.doubleValue
        guard value.isFinite, value >= 0, value <= DurationText.maximum.milliseconds else {
            report(member.valueLocation, path,
                   "expected a number of milliseconds from 0 to \(Int(DurationText.maximum.milliseconds)) (365 days), found \(MessageQuoting.escaped(number.text))")
            return nil
        }
        return .nanoseconds(Int64((value * 1_000_000).rounded()))
    }

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

    private mutating func boolean(_ member: JSONMember, path: String) -> Bool? {
        guard case .bool(let value) = member.value else {
            report(member.valueLocation, path, "expected true or false, found \(member.value.kindName)")
            return nil
        }
        return value
    }

    private mutating func string(_ member: JSONMember, path: String) -> String? {
        guard case .string(let text) = member.value else {
            report(member.valueLocation, path, "expected a string, found \(member.value.kindName)")
            return nil
        }
        return text
    }

    private mutating func choice<Choice: RawRepresentable>(
        _ member: JSONMember, path: String, from type: Choice.Type, names: [String]
    ) -> Choice? where Choice.RawValue == String {
        if case .string(let text) = member.value, let value = Choice(rawValue: text) { return value }
        let found = if case .string(let text) = member.value { MessageQuoting.quoted(text) } else { member.value.kindName }
        report(member.valueLocation, path, "expected one of " + names.joined(separator: ", ") + ", found \(found)")
        return nil
    }

    private mutating func identifiers(_ member: JSONMember, path: String) -> [CommandID]? {
        guard case .array(let elements) = member.value else {
            report(member.valueLocation, path, "expected an array of command ids, found \(member.value.kindName)")
            return nil
        }
        var ids: [CommandID] = []
        var complete = true
        for (position, element) in elements.enumerated() {
            if let id = identifier(element.value, at: element.location, path: "\(path)[\(position)]") { ids.append(id) } else { complete = false }
        }
        return complete ? ids : nil
    }

    private mutating func identifier(_ value: JSONValue, at location: JSONLocation, path: String) -> CommandID? {
        guard case .string(let text) = value, !text.isEmpty else {
            report(location, path, "expected a command id (a non-empty string), found \(value.kindName)")
            return nil
        }
        if let problem = CommandIDRule.problem(with: text) {
            report(location, path, problem)
            return nil
        }
        return CommandID(text)
    }

    private mutating func report(_ location: JSONLocation, _ path: String, _ message: String) {
        problems.append(ManifestProblem(line: location.line, column: location.column, path: path, message: message))
    }
}
