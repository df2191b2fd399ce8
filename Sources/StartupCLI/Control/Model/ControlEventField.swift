/// One extra member of a ``ControlEvent``.
package struct ControlEventField: Sendable, Equatable {
    /// The member's name (camelCase).
    package var name: String
    /// Its value.
    package var value: ControlEventValue

    /// A member.
    package init(_ name: String, _ value: ControlEventValue) {
        self.name = name
        self.value = value
    }
}
