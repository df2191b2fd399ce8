extension DocumentError {
    /// Parses a document's bytes, turning a syntax error into an `.invalid` error at its place.
    ///
    /// - Throws: ``DocumentError`` (`.invalid`) with one problem, `invalid JSON: ...`.
    package static func parse(_ bytes: [UInt8], file: String) throws(DocumentError) -> JSONElement {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw DocumentError(
                code: .invalid, file: file,
                problems: [
                    DocumentProblem(
                        line: error.location.line, column: error.location.column, path: "", message: "invalid JSON: \(error.message)")
                ])
        }
    }

    /// An `.invalid` error with the problems in document order (by line, then column, then as
    /// found); problems without a place come last.
    package static func invalid(file: String, problems: [DocumentProblem]) -> DocumentError {
        let inDocumentOrder = problems.enumerated().sorted { lhs, rhs in
            (lhs.element.line ?? .max, lhs.element.column ?? 0, lhs.offset) < (
                rhs.element.line ?? .max, rhs.element.column ?? 0, rhs.offset
            )
        }
        return DocumentError(code: .invalid, file: file, problems: inDocumentOrder.map(\.element))
    }
}
