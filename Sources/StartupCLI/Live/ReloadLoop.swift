import StartupKit
import StartupManifest

/// The run's watching while it holds: each reload the ``Watcher`` asks for is carried out by ``RunControl``, one at
/// a time per command, until the shutdown stops it first.
final class ReloadLoop: Sendable {
    private let watcher: Watcher
    private let loop: Task<Void, Never>

    /// Starts watching `manifest`'s commands that have `"watch"`, unless none has; `excludedPaths` are what the run
    /// writes while it is up (its logs, report, trace and plot). A watch that cannot start is said and left out.
    static func start(
        manifest: Manifest, folder: String, excludedPaths: [String], control: RunControl, console: Console
    ) async -> ReloadLoop? {
        let watched = manifest.commands.compactMap { command in command.watch.map { (command.id, $0) } }
        guard !watched.isEmpty else { return nil }
        let watcher: Watcher
        do {
            watcher = try Watcher(folder: folder, commands: watched, excludedPaths: excludedPaths)
        } catch {
            console.warning("not watching files: \(error)")
            return nil
        }
        await watcher.watching()
        return ReloadLoop(watcher: watcher, control: control, console: console)
    }

    private init(watcher: Watcher, control: RunControl, console: Console) {
        self.watcher = watcher
        loop = Task {
            var number = 0
            // Reloads of different commands may overlap; one command's come one after the other (the watcher asks
            // for the next only after `reloadEnded`), so one task per command is kept, the last.
            var reloads: [CommandID: Task<Void, Never>] = [:]
            for await event in watcher.events {
                switch event {
                case .reload(let id, let batch):
                    number += 1
                    reloads[id] = Task { [number] in
                        await control.reload(id, number: number, changes: batch)
                        watcher.reloadEnded(id)
                    }
                case .notice(let text):
                    console.notice(text)
                }
            }
            // Stopped: a reload under way is stopped too, and waited for.
            for reload in reloads.values { reload.cancel() }
            for reload in reloads.values { await reload.value }
        }
    }

    /// Stops watching, and returns once no reload runs (one under way is stopped: its one-shot commands get SIGTERM,
    /// a service's restart ends when it is ready or has failed).
    func stop() async {
        await watcher.stop()
        loop.cancel()
        await loop.value
    }
}
