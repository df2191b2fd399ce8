import StartupJSON
import StartupKit
import StartupSupport

/// Typed readers for the values of a manifest, each reporting a precise problem when the value
/// does not fit.
extension ManifestDecoder {
    mutating func string(_ member: JSONMember, path: @autoclosure () -> String) -> String? {
        guard let text = text(member, path: path()) else { return nil }
        guard !text.unicodeScalars.contains("\0") else {
            report(member.valueLocation, path(), "must not contain a NUL character")
            return nil
        }
        return text
    }

    mutating func duration(_ member: JSONMember, path: @autoclosure () -> String) -> Duration? {
        switch member.value {
        case .string(let text):
            if let duration = DurationText.parse(text) { return duration }
            report(member.valueLocation, path(), "invalid duration \(MessageQuoting.quoted(text)): \(DurationText.problem(with: text))")
        case .number(let number):
            let written = MessageQuoting.escaped(number.text)
            report(
                member.valueLocation, path(),
                "a duration needs a unit: found the bare number \(written); write \"\(written)ms\" or \"\(written)s\"")
        default:
            report(member.valueLocation, path(), "expected a duration such as \"250ms\", found \(member.value.kindName)")
        }
        return nil
    }

    mutating func timeout(_ member: JSONMember, path: @autoclosure () -> String) -> Duration? {
        positiveDuration(member, path: path(), what: "timeout")
    }

    /// A `"stopTimeout"`: a duration longer than zero, on a command that has a `"stop"` line (it bounds that line).
    mutating func stopTimeout(_ member: JSONMember, path: @autoclosure () -> String, hasStop: Bool) -> Duration? {
        guard let value = positiveDuration(member, path: path(), what: "stopTimeout") else { return nil }
        guard hasStop else {
            report(
                member.keyLocation, path(),
                "\"stopTimeout\" bounds the command's \"stop\" line, and it has none; add \"stop\" or leave \"stopTimeout\" out")
            return nil
        }
        return value
    }

    mutating func budget(_ member: JSONMember, path: @autoclosure () -> String) -> Duration? {
        positiveDuration(member, path: path(), what: "budget")
    }

    /// A duration that must be longer than zero, such as a timeout or a budget.
    private mutating func positiveDuration(_ member: JSONMember, path: @autoclosure () -> String, what: String) -> Duration? {
        guard let value = duration(member, path: path()) else { return nil }
        guard value > .zero else {
            report(member.valueLocation, path(), "a \(what) must be longer than zero")
            return nil
        }
        return value
    }

    mutating func retries(_ member: JSONMember, path: @autoclosure () -> String) -> Int? {
        guard let value = integer(member, path: path()) else { return nil }
        guard (0...100).contains(value) else {
            report(member.valueLocation, path(), "retries must be from 0 to 100, found \(value)")
            return nil
        }
        return value
    }

    /// A `run` or `stop` line: a string with something in it; `ifEmpty` says what to do instead.
    mutating func shellLine(_ member: JSONMember, path: @autoclosure () -> String, ifEmpty: String) -> String? {
        guard let line = string(member, path: path()) else { return nil }
        guard line.contains(where: { !$0.isWhitespace }) else {
            report(member.valueLocation, path(), "empty \(member.key) line; \(ifEmpty)")
            return nil
        }
        return line
    }

    mutating func workingDirectory(_ member: JSONMember, path: @autoclosure () -> String) -> String? {
        guard let directory = string(member, path: path()) else { return nil }
        guard !directory.isEmpty else {
            report(member.valueLocation, path(), "empty directory; use \".\" for the manifest's folder")
            return nil
        }
        return directory
    }

    mutating func environment(_ member: JSONMember, path: @autoclosure () -> String) -> [String: String]? {
        guard case .object(let members) = member.value else {
            report(member.valueLocation, path(), "expected an object of variable names to strings, found \(member.value.kindName)")
            return nil
        }
        var environment: [String: String] = [:]
        for variable in members {
            func variablePath() -> String { "\(path()).\(MessageQuoting.escaped(variable.key))" }
            guard !variable.key.isEmpty, !variable.key.contains("="), !variable.key.unicodeScalars.contains("\0") else {
                report(variable.keyLocation, variablePath(), "invalid variable name \(MessageQuoting.quoted(variable.key))")
                continue
            }
            guard environment[variable.key] == nil else {
                report(variable.keyLocation, variablePath(), "duplicate variable \(MessageQuoting.quoted(variable.key))")
                continue
            }
            if let value = string(variable, path: variablePath()) { environment[variable.key] = value }
        }
        return environment
    }

    /// The paths of `"envFile"`: one path (`".env"`) or an array of them (`["base.env", ".env.local"]`, possibly
    /// empty), each a non-empty string without a NUL character; `nil` after reporting every bad one.
    mutating func environmentFiles(_ member: JSONMember, path: @autoclosure () -> String) -> [String]? {
        switch member.value {
        case .string:
            return environmentFile(member.value, at: member.valueLocation, path: path()).map { [$0] }
        case .array(let elements):
            var files: [String] = []
            files.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                guard let file = environmentFile(element.value, at: element.location, path: "\(path())[\(position)]") else { continue }
                files.append(file)
            }
            return files.count == elements.count ? files : nil
        default:
            report(member.valueLocation, path(), "expected a file name or an array of file names, found \(describe(member.value))")
            return nil
        }
    }

    /// One path of `"envFile"`, or `nil` after reporting why it is not one.
    private mutating func environmentFile(_ value: JSONValue, at location: JSONLocation, path: String) -> String? {
        guard case .string(let file) = value else {
            report(location, path, "expected a file name, found \(describe(value))")
            return nil
        }
        guard !file.isEmpty else {
            report(location, path, "\"\" is not a file name; name an env file such as \".env\"")
            return nil
        }
        guard !file.unicodeScalars.contains("\0") else {
            report(location, path, "the file name \(MessageQuoting.quoted(file)) contains a NUL character")
            return nil
        }
        return file
    }
}
