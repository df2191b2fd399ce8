/// The members of a JSON object by key, each key once (the first of repeated keys). Objects are
/// small, so a few keys are found by comparing them in turn, without hashing; large objects get an
/// index.
package struct JSONMembers: Sendable {
    /// Above this many members, keys are looked up through `index`.
    private static let scanLimit = 16

    /// The members, keys unique, in document order.
    private var list: [JSONMember] = []
    /// Each key's position in `list`, once the object is large.
    private var index: [String: Int]? = nil

    /// No members.
    package init() {}

    /// The member with `key`, or `nil`.
    package subscript(key: String) -> JSONMember? {
        if let index { return index[key].map { list[$0] } }
        return list.first { $0.key == key }
    }

    /// Adds `member` unless its key is already there; tells whether it was added.
    mutating func insert(_ member: JSONMember) -> Bool {
        guard self[member.key] == nil else { return false }
        if index != nil {
            index?[member.key] = list.count
        } else if list.count == Self.scanLimit {
            index = Dictionary(uniqueKeysWithValues: list.enumerated().map { ($0.element.key, $0.offset) })
            index?[member.key] = list.count
        }
        list.append(member)
        return true
    }
}
