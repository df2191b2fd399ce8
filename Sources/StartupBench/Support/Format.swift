import Foundation

/// Number formatting shared by the human-readable lines and the summary.
enum Format {
    /// `value` with exactly `decimals` digits after the point, such as `0.934`.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// `text` padded with spaces on the right to `width` characters.
    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
