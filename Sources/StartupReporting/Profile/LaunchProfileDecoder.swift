import StartupJSON
import StartupKit
import StartupSupport

/// Reads a saved launch profile, collecting every problem: not an object, a version it does not
/// know, invalid or repeated ids, durations that are not milliseconds. Keys it does not know are
/// ignored.
struct LaunchProfileDecoder: JSONChecking {
    private(set) var problems: [DocumentProblem] = []

    /// Parses and checks profile bytes.
    ///
    /// - Throws: `ReportError` (`.invalid`) with every problem found, in document order.
    static func decode(_ bytes: [UInt8], file: String) throws(ReportError) -> LaunchProfile {
        let root = try DocumentError.parse(bytes, file: file)
        var decoder = LaunchProfileDecoder()
        let durations = decoder.durations(from: root)
        if decoder.problems.isEmpty, let durations { return LaunchProfile(durations: durations) }
        throw .invalid(file: file, problems: decoder.problems)
    }

    /// Records a problem.
    mutating func report(_ location: JSONLocation, _ path: String, _ message: String) {
        problems.append(DocumentProblem(line: location.line, column: location.column, path: path, message: message))
    }

    private mutating func durations(from root: JSONElement) -> [CommandID: [Duration]]? {
        guard case .object(let list) = root.value else {
            report(
                root.location, "",
                "expected a launch profile (an object with \"version\" and \"commands\", as LaunchProfile.save writes it), found \(root.value.kindName)"
            )
            return nil
        }
        let members = self.members(list, path: "")
        if let version = required(members, "version", in: root, path: "").flatMap({ integer($0, path: "version") }), version != 1 {
            report(members["version"]!.valueLocation, "version", "unknown version \(version); this library reads version 1")
        }
        guard let commands = required(members, "commands", in: root, path: "") else { return nil }
        guard case .array(let elements) = commands.value else {
            report(commands.valueLocation, "commands", "expected an array of commands, found \(commands.value.kindName)")
            return nil
        }
        var durations: [CommandID: [Duration]] = [:]
        for (index, element) in elements.enumerated() {
            let path = "commands[\(index)]"
            guard case .object(let list) = element.value else {
                report(element.location, path, "expected a command as an object, found \(element.value.kindName)")
                continue
            }
            let members = self.members(list, path: path)
            let id = required(members, "id", in: element, path: path).flatMap {
                identifier($0.value, at: $0.valueLocation, path: path + ".id")
            }
            guard let list = required(members, "durationsMs", in: element, path: path) else { continue }
            guard case .array(let values) = list.value else {
                report(list.valueLocation, path + ".durationsMs", "expected an array of milliseconds, found \(list.value.kindName)")
                continue
            }
            let read = values.enumerated().compactMap { position, value in
                milliseconds(
                    JSONMember(key: "", keyLocation: value.location, value: value.value, valueLocation: value.location),
                    path: "\(path).durationsMs[\(position)]")
            }
            guard let id else { continue }
            if durations[id] != nil {
                report(element.location, path + ".id", "duplicate command \(MessageQuoting.quoted(id))")
            }
            durations[id] = read
        }
        return durations
    }
}
