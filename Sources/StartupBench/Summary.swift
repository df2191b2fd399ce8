/// The block that ends every run: one `name: value` line per figure, so runs can be compared.
enum Summary {
    /// Prints the summary block.
    static func print(_ figures: [Figure]) {
        Console.line("\n== summary ==")
        for figure in figures { Console.line(figure.summaryLine) }
    }
}
