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
}
