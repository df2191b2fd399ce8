import StartupJSON
import StartupKit

/// The control socket's protocol: line-delimited JSON, one request a connection, then answers until a final
/// one (docs/CLI.md, "The control protocol").
package enum ControlProtocol {
    /// The version this build speaks; a request must carry it.
    package static let version = 1
    /// The longest request line: one longer without a line feed is refused.
    package static let requestLimit = 64 * 1024
    /// How deeply a request or an answer may nest.
    static let maximumDepth = 8

    /// The members of the JSON object in `bytes`, by key (the first of repeated keys), or why not.
    static func object(_ bytes: [UInt8]) -> Result<ControlMembers, ControlProtocolError> {
        let root: JSONElement
        do {
            root = try JSONParser.parse(bytes, maxDepth: maximumDepth)
        } catch {
            return .failure(ControlProtocolError("not JSON: \(error)"))
        }
        guard case .object(let list) = root.value else {
            return .failure(ControlProtocolError("expected a JSON object, found \(root.value.kindName)"))
        }
        return .success(ControlMembers(list))
    }
}

/// The members of a JSON object of the protocol, looked up by key (the first of repeated keys). Requests and
/// answers have a few members, so they are compared in turn.
struct ControlMembers {
    /// The members in document order.
    let all: [JSONMember]

    /// The members of `list`.
    init(_ list: [JSONMember]) {
        all = list
    }

    /// The first member with `key`, or `nil`.
    subscript(key: String) -> JSONMember? {
        all.first { $0.key == key }
    }
}
