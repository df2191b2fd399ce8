/// The environment of a child process: variables many children share, made into C strings once for all of them,
/// and a few of this child's own on top (its command id, its `env`), so a spawn copies pointers rather than
/// building every `NAME=value` string again.
package struct ChildEnvironment: Sendable, Hashable {
    /// Variables shared by many children, with their C strings.
    private let shared: SharedEnvironment
    /// This child's own variables: added, or replacing shared ones of the same name.
    private let own: [String: String]
    /// The positions in `shared` of the variables `own` replaces.
    private let replaced: Set<Int>

    /// `shared`'s variables with `own`'s added or put in their place.
    init(shared: SharedEnvironment, own: [String: String] = [:]) {
        self.shared = shared
        self.own = own
        replaced = Set(own.keys.compactMap { shared.positions[$0] })
    }

    /// Exactly `variables`, shared with no other child.
    package init(_ variables: [String: String]) {
        self.init(shared: SharedEnvironment(variables))
    }

    /// The value of the variable `name`, if the child has it.
    package subscript(name: String) -> String? {
        own[name] ?? shared.variables[name]
    }

    /// Every variable the child gets.
    package var variables: [String: String] {
        shared.variables.merging(own) { _, mine in mine }
    }

    /// Two environments are equal when the child gets the same variables.
    package static func == (lhs: ChildEnvironment, rhs: ChildEnvironment) -> Bool {
        lhs.variables == rhs.variables
    }

    /// Hashes the variables the child gets.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(variables)
    }

    /// Calls `body` with the NULL-terminated `envp` array, `extra` (`NAME=value`) added, or `nil` when a name or
    /// value holds a NUL byte (it cannot be passed to C).
    func withCStrings<R>(adding extra: String?, _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R) -> R {
        var mine = CStringArray([])
        for (name, value) in own { mine.append(name, "=", value) }
        if let extra { mine.append(extra) }
        guard !shared.strings.hasEmbeddedNul, !mine.hasEmbeddedNul else { return body(nil) }
        return shared.strings.withAddresses { sharedAddresses in
            mine.withAddresses { ownAddresses in
                let count = sharedAddresses.count - replaced.count + ownAddresses.count
                return withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: count + 1) { pointers in
                    var next = 0
                    for (position, address) in sharedAddresses.enumerated() where replaced.isEmpty || !replaced.contains(position) {
                        pointers[next] = address
                        next += 1
                    }
                    for address in ownAddresses {
                        pointers[next] = address
                        next += 1
                    }
                    pointers[next] = nil
                    return body(UnsafePointer(pointers.baseAddress!))
                }
            }
        }
    }
}

/// Environment variables shared by many children (a run's base environment), made into `NAME=value` C strings
/// once. Immutable.
final class SharedEnvironment: Sendable {
    /// The variables.
    let variables: [String: String]
    /// `NAME=value` for each variable, in `positions` order.
    fileprivate let strings: CStringArray
    /// Each variable's position in `strings`.
    fileprivate let positions: [String: Int]

    /// Makes the C strings of `variables`.
    init(_ variables: [String: String]) {
        self.variables = variables
        var strings = CStringArray([])
        var positions: [String: Int] = [:]
        positions.reserveCapacity(variables.count)
        for (name, value) in variables {
            positions[name] = positions.count
            strings.append(name, "=", value)
        }
        self.strings = strings
        self.positions = positions
    }
}
