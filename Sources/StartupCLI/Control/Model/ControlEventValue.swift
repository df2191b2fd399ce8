/// The value of an extra member of a ``ControlEvent``.
package enum ControlEventValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case strings([String])
}
