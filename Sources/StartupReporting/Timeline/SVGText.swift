/// An SVG document being written, line by line.
struct SVGText {
    private(set) var text = ""

    /// Appends a line.
    mutating func line(_ line: String) {
        text += line
        text += "\n"
    }

    /// A coordinate: at most `decimals` decimals, no trailing zeros (`12`, `3.5`, `0.25`).
    static func number(_ value: Double, decimals: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
