import StartupKit
import StartupManifest
import StartupReporting

/// One hypothetical change to a start-up graph, as `startup plan --what-if` takes it.
package enum WhatIfChange: Equatable, Sendable, CustomStringConvertible {
    /// `drop=ID`: the command no longer exists; what waited for it waits for its dependencies instead.
    case drop(CommandID)
    /// `detach=ID` (or `defer=ID`): nothing waits for the command any more (what waited for it
    /// waits for its dependencies instead); it still runs.
    case detach(CommandID)
    /// `cut=A->B`: `dependent` no longer waits for `dependency` (a dependency or an `after` edge).
    case cut(dependency: CommandID, dependent: CommandID)
    /// `scale=ID:0.5`: the command takes `factor` times its estimate.
    case scale(CommandID, factor: Double)
    /// `set=ID:80ms`: the command takes this long.
    case setDuration(CommandID, Duration)

    /// The ids the change names, each checked against the manifest.
    var ids: [CommandID] {
        switch self {
        case .drop(let id), .detach(let id), .scale(let id, _), .setDuration(let id, _): [id]
        case .cut(let dependency, let dependent): [dependency, dependent]
        }
    }

    /// The change as written: `drop=search-index`, `scale=database:0.5`.
    package var description: String {
        switch self {
        case .drop(let id): "drop=\(id)"
        case .detach(let id): "detach=\(id)"
        case .cut(let dependency, let dependent): "cut=\(dependency)->\(dependent)"
        case .scale(let id, let factor): "scale=\(id):\(WhatIfChange.format(factor))"
        case .setDuration(let id, let duration): "set=\(id):\(DurationText.format(duration))"
        }
    }

    /// `0.5`, `2`, `0.333`.
    static func format(_ factor: Double) -> String {
        JSONOutput.number(factor).text()
    }
}
