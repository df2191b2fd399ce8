import StartupJSON
import StartupKit

/// Reads a command's `"watch"`: a list of paths or globs (`["src/**/*.py", "!src/**/test_*"]`), or
/// `{"paths": [...], "debounce": "200ms"}`.
extension ManifestDecoder {
    /// The keys of `"watch"` written as an object.
    static let watchKeys = ["paths", "debounce"]
    /// The debounces a manifest may give.
    static let watchDebounceRange = Duration.zero...ManifestWatch.longestDebounce

    /// The watch rules of a command, or `nil` after reporting each problem.
    ///
    /// - Parameters:
    ///   - member: The `"watch"` member.
    ///   - path: `commands[2] ("api").watch`.
    ///   - hasRun: Whether the command has a `"run"` line (a milestone has nothing to reload).
    mutating func watch(_ member: JSONMember, path: String, hasRun: Bool) -> ManifestWatch? {
        var watch: ManifestWatch?
        switch member.value {
        case .array(let elements):
            watch = watchPaths(elements, at: member.valueLocation, path: path).map { ManifestWatch(paths: $0) }
        case .object:
            let element = JSONElement(value: member.value, location: member.valueLocation)
            guard let members = object(element, path: path, allowed: Self.watchKeys, what: "watch rules") else { return nil }
            var complete = true
            var debounce = ManifestWatch.defaultDebounce
            if let written = members["debounce"] {
                if let value = duration(
                    written, path: path + ".debounce", in: Self.watchDebounceRange, what: "a debounce",
                    range: "0ms to 60s")
                {
                    debounce = value
                } else {
                    complete = false
                }
            }
            guard let pathsMember = members["paths"] else {
                report(member.valueLocation, path, "missing \"paths\"; add \"paths\": [\"src/**\"], the paths or globs to watch")
                return nil
            }
            guard case .array(let elements) = pathsMember.value else {
                report(
                    pathsMember.valueLocation, path + ".paths", "expected a list of paths or globs, found \(describe(pathsMember.value))")
                return nil
            }
            let paths = watchPaths(elements, at: pathsMember.valueLocation, path: path + ".paths")
            if let paths, complete { watch = ManifestWatch(paths: paths, debounce: debounce) }
        default:
            report(
                member.valueLocation, path,
                "expected a list of paths or globs, or {\"paths\": [...], \"debounce\": \"200ms\"}, found \(describe(member.value))")
            return nil
        }
        guard hasRun else {
            report(
                member.keyLocation, path,
                "\"watch\" reloads the command's \"run\" line, and it has none; add \"run\" or leave \"watch\" out")
            return nil
        }
        return watch
    }

    /// The normalized patterns of a `"watch"` list, or `nil` after reporting every bad one: an empty list,
    /// a pattern that is not one, a list of excludes only.
    private mutating func watchPaths(_ elements: [JSONElement], at location: JSONLocation, path: String) -> [String]? {
        guard !elements.isEmpty else {
            report(location, path, "an empty list watches nothing; name paths or globs such as \"src/**/*.py\", or leave \"watch\" out")
            return nil
        }
        var patterns: [WatchPattern] = []
        patterns.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            guard case .string(let written) = element.value else {
                report(element.location, "\(path)[\(position)]", "expected a path or a glob, found \(describe(element.value))")
                continue
            }
            guard !written.unicodeScalars.contains("\0") else {
                report(element.location, "\(path)[\(position)]", "must not contain a NUL character")
                continue
            }
            do throws(WatchPatternError) {
                patterns.append(try WatchPattern(written))
            } catch {
                report(element.location, "\(path)[\(position)]", error.description)
            }
        }
        guard patterns.count == elements.count else { return nil }
        guard patterns.contains(where: { !$0.isExclude }) else {
            report(
                location, path,
                "only excludes (\"!...\"), so nothing is watched; add a path or glob to watch, such as \"src/**\", before them")
            return nil
        }
        return patterns.map(\.written)
    }
}
