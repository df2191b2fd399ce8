import StartupKit
import StartupManifest
import StartupSupport

/// Reads the changes of `--what-if`: `;`-separated `verb=arguments` items, a verb's arguments
/// separated by commas.
///
/// ```text
/// drop=search-index;  scale=database:0.5, secrets:0.8;  set=cache:20ms;  detach=analytics;  cut=auth-session->router
/// ```
enum WhatIfSyntax {
    /// The verbs, for messages and suggestions.
    static let verbs = ["drop", "detach", "defer", "cut", "scale", "set"]
    /// A reminder of the whole syntax.
    static let summary = "use drop=ID, detach=ID, cut=ID->ID, scale=ID:FACTOR or set=ID:DURATION, separated by \";\""

    /// Parses one `--what-if` value.
    ///
    /// - Returns: The changes, in the order written.
    /// - Throws: A message naming the item that cannot be read.
    static func parse(_ text: String) throws(WhatIfError) -> [WhatIfChange] {
        var changes: [WhatIfChange] = []
        for item in text.split(separator: ";").map(trimmed) where !item.isEmpty {
            guard let equals = item.firstIndex(of: "=") else {
                throw WhatIfError(message: "cannot read \(MessageQuoting.quoted(item)); \(summary)")
            }
            let verb = trimmed(item[..<equals])
            let arguments = item[item.index(after: equals)...].split(separator: ",").map(trimmed)
            guard !arguments.isEmpty, !arguments.contains(where: \.isEmpty) else {
                throw WhatIfError(message: "\(MessageQuoting.quoted(item)) names no command; \(summary)")
            }
            for argument in arguments {
                changes.append(try change(verb: verb, argument: argument, item: item))
            }
        }
        guard !changes.isEmpty else { throw WhatIfError(message: "no changes given; \(summary)") }
        return changes
    }

    private static func change(verb: String, argument: String, item: String) throws(WhatIfError) -> WhatIfChange {
        switch verb {
        case "drop": return .drop(CommandID(argument))
        case "detach", "defer": return .detach(CommandID(argument))
        case "cut":
            guard let arrow = argument.firstRange(of: "->") else {
                throw WhatIfError(
                    message: "cut needs DEPENDENCY->DEPENDENT, such as cut=auth-session->router, not \(MessageQuoting.quoted(argument))")
            }
            let dependency = trimmed(argument[..<arrow.lowerBound])
            let dependent = trimmed(argument[arrow.upperBound...])
            guard !dependency.isEmpty, !dependent.isEmpty else {
                throw WhatIfError(
                    message: "cut needs DEPENDENCY->DEPENDENT, such as cut=auth-session->router, not \(MessageQuoting.quoted(argument))")
            }
            return .cut(dependency: CommandID(dependency), dependent: CommandID(dependent))
        case "scale":
            let (id, value) = try split(argument, verb: verb, example: "scale=database:0.5")
            guard let factor = factor(value) else {
                throw WhatIfError(
                    message:
                        "invalid factor \(MessageQuoting.quoted(value)) in \(MessageQuoting.quoted(argument)); write a number from 0 to \(WhatIfChange.format(maximumFactor)), such as 0.5 or 50%"
                )
            }
            return .scale(id, factor: factor)
        case "set":
            let (id, value) = try split(argument, verb: verb, example: "set=database:80ms")
            guard let duration = DurationText.parse(value) else {
                throw WhatIfError(
                    message:
                        "invalid duration \(MessageQuoting.quoted(value)) in \(MessageQuoting.quoted(argument)): \(DurationText.problem(with: value))"
                )
            }
            return .setDuration(id, duration)
        default:
            let hint = IdentifierSuggestion.closest(to: verb, in: verbs).map { " (did you mean \(MessageQuoting.quoted($0))?)" } ?? ""
            throw WhatIfError(message: "unknown change \(MessageQuoting.quoted(verb))\(hint); \(summary)")
        }
    }

    /// `ID:VALUE`, split at the last colon so ids may contain colons.
    private static func split(_ argument: String, verb: String, example: String) throws(WhatIfError) -> (CommandID, String) {
        guard let colon = argument.lastIndex(of: ":"), colon != argument.startIndex else {
            throw WhatIfError(message: "\(verb) needs ID:VALUE, such as \(example), not \(MessageQuoting.quoted(argument))")
        }
        return (CommandID(trimmed(argument[..<colon])), trimmed(argument[argument.index(after: colon)...]))
    }

    /// The largest factor `scale` takes.
    static let maximumFactor = 1_000.0

    /// `0.5`, `2`, `x0.5` or `50%`; `nil` unless a number from 0 to ``maximumFactor``.
    private static func factor(_ text: String) -> Double? {
        var text = Substring(text)
        if text.hasPrefix("x") || text.hasPrefix("*") { text = text.dropFirst() }
        let percent = text.hasSuffix("%")
        if percent { text = text.dropLast() }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(text)
        else { return nil }
        let factor = percent ? value / 100 : value
        return factor <= maximumFactor ? factor : nil
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
