import StartupKit
import StartupSupport

/// The checks every JSON document of this package (a manifest, a saved run report) makes of its
/// values, written once so both documents accept and reject the same things: a command id the
/// manifest rejects is rejected in a report too.
///
/// A conforming decoder collects problems through ``report(_:_:_:)``; each check returns the value,
/// or `nil` after reporting what is wrong and where.
package protocol JSONChecking {
    /// Records a problem at a place in the document; `path` names the value
    /// (`commands[4] ("database").dependencies[1]`).
    mutating func report(_ location: JSONLocation, _ path: String, _ message: String)
}

extension JSONChecking {
    /// The members of an object by key, reporting repeated keys; unknown keys are left alone.
    package mutating func members(_ list: [JSONMember], path: @autoclosure () -> String) -> JSONMembers {
        var byKey = JSONMembers()
        for member in list where !byKey.insert(member) {
            reportRepeatedKey(member, path: path())
        }
        return byKey
    }

    /// Reports a member whose key came earlier in its object (the earlier one is the one read).
    package mutating func reportRepeatedKey(_ member: JSONMember, path: String) {
        let key = MessageQuoting.escaped(member.key)
        report(member.keyLocation, path.isEmpty ? key : "\(path).\(key)", "duplicate key \(MessageQuoting.quoted(member.key))")
    }

    /// A member that must be there, or `nil` after reporting that it is missing.
    package mutating func required(_ members: JSONMembers, _ key: String, in element: JSONElement, path: String) -> JSONMember? {
        guard let member = members[key] else {
            report(element.location, path, "missing \"\(key)\"")
            return nil
        }
        return member
    }

    /// A member that may be left out; `nil` when absent or `null`.
    package func present(_ members: JSONMembers, _ key: String) -> JSONMember? {
        guard let member = members[key] else { return nil }
        if case .null = member.value { return nil }
        return member
    }

    /// A string, whatever its content.
    package mutating func text(_ member: JSONMember, path: @autoclosure () -> String) -> String? {
        guard case .string(let text) = member.value else {
            report(member.valueLocation, path(), "expected a string, found \(member.value.kindName)")
            return nil
        }
        return text
    }

    /// A whole number that fits in `Int`.
    package mutating func integer(_ member: JSONMember, path: @autoclosure () -> String) -> Int? {
        guard case .number(let number) = member.value, let value = number.integerValue else {
            report(member.valueLocation, path(), "expected a whole number, found \(describe(member.value))")
            return nil
        }
        return value
    }

    /// `true` or `false`.
    package mutating func boolean(_ member: JSONMember, path: @autoclosure () -> String) -> Bool? {
        guard case .bool(let value) = member.value else {
            report(member.valueLocation, path(), "expected true or false, found \(describe(member.value))")
            return nil
        }
        return value
    }

    /// A priority: `"low"`, `"normal"`, `"high"` or a whole number from -1,000,000 to 1,000,000.
    package mutating func priority(_ member: JSONMember, path: @autoclosure () -> String) -> CommandPriority? {
        switch member.value {
        case .string("low"): return .low
        case .string("normal"): return .normal
        case .string("high"): return .high
        case .number(let number):
            if let value = number.integerValue, (-1_000_000...1_000_000).contains(value) { return CommandPriority(value) }
        default: break
        }
        report(
            member.valueLocation, path(),
            "expected \"low\", \"normal\", \"high\" or a whole number from -1000000 to 1000000, found \(describe(member.value))")
        return nil
    }

    /// A command id: a string of 1 to 200 characters without spaces or control characters.
    package mutating func identifier(_ value: JSONValue, at location: JSONLocation, path: @autoclosure () -> String) -> CommandID? {
        guard case .string(let text) = value else {
            report(location, path(), "expected a command id (a string), found \(value.kindName)")
            return nil
        }
        if let problem = CommandIDRule.problem(with: text) {
            report(location, path(), problem)
            return nil
        }
        return CommandID(text)
    }

    /// An array of command ids; `nil` if it is not an array or any id is invalid (each reported).
    package mutating func identifiers(_ member: JSONMember, path: String) -> [CommandID]? {
        guard case .array(let elements) = member.value else {
            report(member.valueLocation, path, "expected an array of command ids, found \(member.value.kindName)")
            return nil
        }
        var ids: [CommandID] = []
        var complete = true
        for (position, element) in elements.enumerated() {
            if let id = identifier(element.value, at: element.location, path: "\(path)[\(position)]") {
                ids.append(id)
            } else {
                complete = false
            }
        }
        return complete ? ids : nil
    }

    /// A value as a message quotes it: a string escaped and quoted, a number as written (escaped),
    /// anything else by its kind.
    package func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): MessageQuoting.quoted(text)
        case .number(let number): "the number \(MessageQuoting.escaped(number.text))"
        default: value.kindName
        }
    }
}
