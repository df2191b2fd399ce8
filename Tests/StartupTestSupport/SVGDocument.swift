import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SVG file parsed with Foundation's `XMLParser`: every element with its attributes and the
/// element it is in, and the text of each `<title>`; parsing fails on anything that is not
/// well-formed XML.
package final class SVGDocument: NSObject, XMLParserDelegate {
    package struct Element {
        package let name: String
        package let attributes: [String: String]
        /// The position in ``SVGDocument/elements`` of the element it is in; `nil` for the root.
        package let parent: Int?

        /// The element's classes.
        package var classes: Set<String> { Set((attributes["class"] ?? "").split(separator: " ").map(String.init)) }
    }

    package struct ParseError: Error, CustomStringConvertible {
        package let description: String
    }

    package private(set) var elements: [Element] = []
    package private(set) var titles: [String] = []
    private var titleText: String?
    /// The positions of the elements open where the parser is.
    private var open: [Int] = []

    /// Parses the text, or throws where it is not well-formed.
    package static func parse(_ text: String) throws -> SVGDocument {
        let document = SVGDocument()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = document
        guard parser.parse() else {
            throw ParseError(description: "not well-formed XML at line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        return document
    }

    /// The row group of every command.
    package var commandGroups: [Element] { elements.filter { $0.name == "g" && $0.classes.contains("command") } }
    /// Every command's bar.
    package var bars: [Element] { elements.filter { $0.name == "rect" && $0.classes.contains("bar") } }

    /// The elements directly inside every `<g>` that has class `groupClass`, in document order.
    package func children(ofGroupsWithClass groupClass: String) -> [Element] {
        elements.filter { element in
            element.parent.map { elements[$0].name == "g" && elements[$0].classes.contains(groupClass) } ?? false
        }
    }

    /// The element `element` is in; `nil` for the root.
    package func parent(of element: Element) -> Element? {
        element.parent.map { elements[$0] }
    }

    package func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        elements.append(Element(name: elementName, attributes: attributes, parent: open.last))
        open.append(elements.count - 1)
        if elementName == "title" { titleText = "" }
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) {
        titleText? += string
    }

    package func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
        if elementName == "title", let text = titleText {
            titles.append(text)
            titleText = nil
        }
    }
}
