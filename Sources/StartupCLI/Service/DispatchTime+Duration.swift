import Dispatch

extension DispatchTime {
    /// Now plus `duration`, saturated (a duration of a year or more is as good as never).
    static func after(_ duration: Duration) -> DispatchTime {
        let (seconds, attoseconds) = duration.components
        let nanoseconds =
            seconds >= Int64(Int.max / 1_000_000_000) ? Int.max : Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return .now() + .nanoseconds(max(0, nanoseconds))
    }
}
