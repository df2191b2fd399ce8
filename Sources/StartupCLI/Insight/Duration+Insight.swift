import StartupKit
import StartupManifest

extension Duration {
    /// The duration without its sign.
    var absolute: Duration { self < .zero ? .zero - self : self }

    /// `+50ms`, `-1.2s`, `±0ms`: a change, with its sign.
    var signedText: String {
        let magnitude = DurationText.format(absolute)
        if magnitude == "0ms" { return "±0ms" }
        return (self < .zero ? "-" : "+") + magnitude
    }

    /// This change as a share of `base` (which must be positive), with its sign: `+35.7%` to a
    /// tenth of a percent, or `+36%` in `wholePercent`s. Capped far beyond any real change, so
    /// that a change from 1ns to a year still prints (as a huge number) instead of overflowing.
    func percentText(of base: Duration, wholePercent: Bool = false) -> String {
        precondition(base > .zero, "a percentage of a duration that is not positive")
        let percent = self / base * 100
        let sign = percent < 0 ? "-" : "+"
        if wholePercent {
            return sign + "\(Int(min(abs(percent), Self.percentCap).rounded()))%"
        }
        let tenths = Int(min(abs(percent) * 10, Self.percentCap).rounded())
        return sign + "\(tenths / 10).\(tenths % 10)%"
    }

    /// The largest number `percentText` prints (in its unit), well within `Int`.
    private static let percentCap = 1e15
}
