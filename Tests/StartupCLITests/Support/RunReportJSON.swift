import Foundation
import Testing

/// `startup run --format json`'s report, read in tests.
enum RunReportJSON {
    /// The report's top-level object.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The member of `report`'s `commands` with this id.
    static func command(_ id: String, in report: [String: Any]) -> [String: Any]? {
        (report["commands"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }
}
