import StartupJSON

/// The members of a command's object by key, sorted in one pass: each key the manifest knows for a command
/// (``ManifestDecoder/commandKeys``) holds its first member.
struct CommandMembers {
    var id: JSONMember?
    var summary: JSONMember?
    var dependencies: JSONMember?
    var after: JSONMember?
    var run: JSONMember?
    var estimate: JSONMember?
    var budget: JSONMember?
    var timeout: JSONMember?
    var retries: JSONMember?
    var optional: JSONMember?
    var onDemand: JSONMember?
    var priority: JSONMember?
    var env: JSONMember?
    var envFile: JSONMember?
    var cwd: JSONMember?
    var stop: JSONMember?
    var stopTimeout: JSONMember?
    var ready: JSONMember?
    var restart: JSONMember?
    var alive: JSONMember?
    var watch: JSONMember?

    /// Where a member went.
    enum Placement {
        /// Under its key.
        case kept
        /// Nowhere: its key came earlier in the object, and the first stays.
        case repeated
        /// Nowhere: no command has its key.
        case unknown
    }

    /// Keeps `member` under its key, unless the key is unknown or taken.
    mutating func keep(_ member: JSONMember) -> Placement {
        switch member.key {
        case "id": Self.place(member, in: &id)
        case "summary": Self.place(member, in: &summary)
        case "dependencies": Self.place(member, in: &dependencies)
        case "after": Self.place(member, in: &after)
        case "run": Self.place(member, in: &run)
        case "estimate": Self.place(member, in: &estimate)
        case "budget": Self.place(member, in: &budget)
        case "timeout": Self.place(member, in: &timeout)
        case "retries": Self.place(member, in: &retries)
        case "optional": Self.place(member, in: &optional)
        case "onDemand": Self.place(member, in: &onDemand)
        case "priority": Self.place(member, in: &priority)
        case "env": Self.place(member, in: &env)
        case "envFile": Self.place(member, in: &envFile)
        case "cwd": Self.place(member, in: &cwd)
        case "stop": Self.place(member, in: &stop)
        case "stopTimeout": Self.place(member, in: &stopTimeout)
        case "ready": Self.place(member, in: &ready)
        case "restart": Self.place(member, in: &restart)
        case "alive": Self.place(member, in: &alive)
        case "watch": Self.place(member, in: &watch)
        default: .unknown
        }
    }

    private static func place(_ member: JSONMember, in slot: inout JSONMember?) -> Placement {
        guard slot == nil else { return .repeated }
        slot = member
        return .kept
    }
}
