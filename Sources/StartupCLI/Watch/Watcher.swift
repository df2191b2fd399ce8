import StartupKit
import StartupManifest
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `startup run` watches while it is up: given the manifest's folder and each watching command's
/// rules, it says which command to reload and for which changes, already debounced and coalesced per
/// command (``ReloadQueue``).
///
/// The run makes one when ``RunOptions/watches`` is true and a command of the run has `"watch"`, once the
/// start-up is done, and stops it before the shutdown:
///
/// ```swift
/// let watched = manifest.commands.compactMap { command in command.watch.map { (command.id, $0) } }
/// let watcher = try Watcher(folder: manifestFolder, commands: watched, excludedPaths: [logDirectory, reportPath])
/// let reloads = Task {
///     var number = 0
///     for await event in watcher.events {
///         switch event {
///         case .reload(let id, let batch):
///             number += 1
///             await control.reload(id, number: number, changed: batch.paths)   // prints the ReloadLine
///             watcher.reloadEnded(id)                                          // always, however it went
///         case .notice(let text): console.notice("\(text)")
///         }
///     }
/// }
/// ...
/// await watcher.stop()   // the loop above then ends
/// await reloads.value
/// ```
///
/// A command gets its next ``Event/reload(_:_:)`` only after ``reloadEnded(_:)`` for the one before; changes
/// meanwhile make exactly one more. Reloads of different commands may be asked for at once; the loop above
/// carries them out one after the other.
package final class Watcher: Sendable {
    /// What the watcher reports.
    package enum Event: Sendable, Hashable {
        /// Reload the command for these changes; call ``Watcher/reloadEnded(_:)`` once it has ended.
        case reload(CommandID, ReloadBatch)
        /// Something to show on standard error, after `startup: `: watches used up (and how to raise the
        /// limit), polling instead of notifications, a folder that cannot be watched.
        case notice(String)
    }

    /// The reloads to run and the notices to show, in order, until ``stop()``.
    package let events: AsyncStream<Event>
    private let source: FileChangeSource
    private let core: Core
    /// The task that matches the source's changes to commands.
    private let matching: Task<Void, Never>

    /// Starts watching. Returns at once: the folders are listed and watched on the source's own thread
    /// (``watching()`` returns when they are).
    ///
    /// - Parameters:
    ///   - folder: The manifest's folder (symbolic links are resolved).
    ///   - commands: Each command to watch, with its `"watch"` (``ManifestCommand/watch``); commands that
    ///     watch nothing are left out.
    ///   - excludedPaths: Files and folders (and what is under them) never watched besides `.git/` and
    ///     `.startup/`: the `--log-dir` folder and what the run itself writes while it is up (a `--report`,
    ///     `--trace-file` or `--plot` path), absolute or relative to the current directory; one outside
    ///     `folder` changes nothing.
    /// - Throws: ``WatchPatternError`` for a path that is not one (a decoded manifest has none).
    package init(folder: String, commands: [(CommandID, ManifestWatch)], excludedPaths: [String] = []) throws(WatchPatternError) {
        var rules: [(CommandID, WatchRules)] = []
        var queues: [CommandID: ReloadQueue<ContinuousClock.Instant>] = [:]
        for (id, watch) in commands {
            rules.append((id, try WatchRules(watch)))
            queues[id] = ReloadQueue(debounce: watch.debounce)
        }
        let root = Self.resolved(folder)
        let excluded = excludedPaths.compactMap { Self.relative(Self.resolved($0), to: root) }
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        self.events = events
        let core = Core(rules: rules, queues: queues, continuation: continuation)
        self.core = core
        let source = FileChangeSource(root: root, scope: WatchScope(rules: rules.map(\.1), excludedPaths: excluded))
        self.source = source
        matching = Task {
            for await event in source.events {
                switch event {
                case .changes(let changes): core.changed(changes)
                case .notice(let text): core.notice(text)
                }
            }
        }
    }

    /// Returns once the folders are watched: a change made after it is seen.
    package func watching() async {
        await source.watching()
    }

    /// The reload of `id` that ``events`` asked for has ended, however it went: changes that came meanwhile
    /// reload it once more, after their debounce.
    package func reloadEnded(_ id: CommandID) {
        core.apply(id) { queue, now in queue.reloadEnded(at: now) }
    }

    /// Stops watching: the source's thread closes its descriptors and ends, no timer fires, and ``events``
    /// finishes. Calling it again does nothing.
    package func stop() async {
        source.stop()
        await source.ended()
        await matching.value
        core.finish()
    }

    /// `path` made absolute against the current directory, with symbolic links resolved where it exists (for a
    /// file not written yet, in its folder).
    private static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        if let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex, let folder = realpath(String(trimmed[..<slash]), nil) {
            defer { free(folder) }
            return String(cString: folder) + trimmed[slash...]
        }
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return resolved(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) + "/" + path
    }

    /// `path` relative to `root`, or `nil` when it is not under it.
    private static func relative(_ path: String, to root: String) -> WatchPath? {
        let folder = WatchPath(root)
        let inside = WatchPath(path)
        guard path.hasPrefix("/"), inside.isInside(folder) else { return nil }
        return WatchPath(names: Array(inside.names.dropFirst(folder.names.count)))
    }
}

extension Watcher {
    /// The reload queues and what drives them: the matching task and the timers call in, the lock guards the
    /// queues' decisions, and the actions (a timer armed, a reload handed out) happen after it.
    private final class Core: Sendable {
        private let rules: [(CommandID, WatchRules)]
        private let continuation: AsyncStream<Event>.Continuation
        private let clock = ContinuousClock()
        /// Guards each command's queue, the armed timers and whether the watcher has stopped.
        private let state: Locked<State>

        private struct State: Sendable {
            var queues: [CommandID: ReloadQueue<ContinuousClock.Instant>]
            var timers: [CommandID: Task<Void, Never>] = [:]
            var isFinished = false
        }

        init(
            rules: [(CommandID, WatchRules)], queues: [CommandID: ReloadQueue<ContinuousClock.Instant>],
            continuation: AsyncStream<Event>.Continuation
        ) {
            self.rules = rules
            self.continuation = continuation
            state = Locked(State(queues: queues))
        }

        /// Hands each command the changes that concern it.
        func changed(_ changes: [WatchChange]) {
            for (id, rules) in self.rules {
                var batch = ReloadBatch()
                for change in changes where rules.concerns(change) {
                    if let shown = change.shown { batch.add(CollectionOfOne(shown)) } else { batch.addOverflow() }
                }
                guard !batch.isEmpty else { continue }
                apply(id) { [batch] queue, now in queue.change(batch, at: now) }
            }
        }

        func notice(_ text: String) {
            continuation.yield(.notice(text))
        }

        /// Feeds `id`'s queue one input at the current instant, then does what it says.
        func apply(
            _ id: CommandID,
            _ input:
                @Sendable (inout ReloadQueue<ContinuousClock.Instant>, ContinuousClock.Instant) ->
                ReloadQueue<ContinuousClock.Instant>.Action
        ) {
            let now = clock.now
            let action = state.withLock { state -> ReloadQueue<ContinuousClock.Instant>.Action in
                guard !state.isFinished, var queue = state.queues[id] else { return .none }
                let action = input(&queue, now)
                state.queues[id] = queue
                return action
            }
            switch action {
            case .none: break
            case .armTimer(let deadline):
                let timer = Task { [clock] in
                    try? await clock.sleep(until: deadline, tolerance: nil)
                    guard !Task.isCancelled else { return }
                    self.apply(id) { queue, now in queue.timerFired(at: now) }
                }
                let cancelled = state.withLock { state in
                    guard !state.isFinished else { return true }
                    state.timers[id] = timer
                    return false
                }
                if cancelled { timer.cancel() }
            case .startReload(let batch):
                continuation.yield(.reload(id, batch))
            }
        }

        /// No more timers or events.
        func finish() {
            let timers = state.withLock { state in
                state.isFinished = true
                defer { state.timers = [:] }
                return Array(state.timers.values)
            }
            for timer in timers { timer.cancel() }
            continuation.finish()
        }
    }
}
