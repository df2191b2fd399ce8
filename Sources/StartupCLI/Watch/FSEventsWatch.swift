#if os(macOS)
    import CoreServices
    import Darwin
    import Dispatch
    import StartupManifest

    /// The macOS side of ``FileChangeSource``: one FSEvents stream on the manifest's folder, with file-level
    /// events, delivered on a serial queue of its own. FSEvents watches the whole tree at no cost per folder,
    /// so the scope only filters what it reports. Dropped events are an overflow.
    struct FSEventsWatch {
        /// What the stream's callback reaches through its context pointer.
        private final class Receiver: Sendable {
            let root: String
            let scope: WatchScope
            let emit: @Sendable (FileChangeSource.Event) -> Void

            init(root: String, scope: WatchScope, emit: @escaping @Sendable (FileChangeSource.Event) -> Void) {
                self.root = root
                self.scope = scope
                self.emit = emit
            }

            /// The change an event of `absolute` with `flags` makes, if it is under the root and not ignored.
            func change(of absolute: String, flags: FSEventStreamEventFlags) -> WatchChange? {
                let dropped = FSEventStreamEventFlags(kFSEventStreamEventFlagUserDropped | kFSEventStreamEventFlagKernelDropped)
                if flags & dropped != 0 { return .overflow }
                let prefix = root.hasSuffix("/") ? root : root + "/"
                let relative: WatchPath
                if absolute == root {
                    relative = WatchPath(".")
                } else if absolute.hasPrefix(prefix) {
                    relative = WatchPath(String(absolute.dropFirst(prefix.count)))
                } else {
                    return nil
                }
                guard !scope.isIgnored(relative) else { return nil }
                if flags & FSEventStreamEventFlags(kFSEventStreamEventFlagMustScanSubDirs) != 0 { return .folder(relative) }
                let isFolder = flags & FSEventStreamEventFlags(kFSEventStreamEventFlagItemIsDir) != 0
                let removed = FSEventStreamEventFlags(kFSEventStreamEventFlagItemRemoved | kFSEventStreamEventFlagItemRenamed)
                return isFolder && flags & removed != 0 ? .folder(relative) : .path(relative)
            }
        }

        private let receiver: Receiver

        /// A stream over `root`, filtered by `scope`.
        init(root: String, scope: WatchScope, emit: @escaping @Sendable (FileChangeSource.Event) -> Void) {
            receiver = Receiver(root: root, scope: scope, emit: emit)
        }

        /// Watches until `stop` is readable; polls instead if the stream cannot be made.
        func run(stop: Int32, ready: () -> Void) {
            var context = FSEventStreamContext(
                version: 0, info: Unmanaged.passUnretained(receiver).toOpaque(), retain: nil, release: nil, copyDescription: nil)
            let callback: FSEventStreamCallback = { _, info, count, paths, flags, _ in
                guard let info else { return }
                let receiver = Unmanaged<Receiver>.fromOpaque(info).takeUnretainedValue()
                let names = paths.assumingMemoryBound(to: UnsafePointer<CChar>.self)
                var changes: [WatchChange] = []
                for index in 0..<count {
                    if let change = receiver.change(of: String(cString: names[index]), flags: flags[index]) { changes.append(change) }
                }
                if !changes.isEmpty { receiver.emit(.changes(changes)) }
            }
            let root = CFStringCreateWithCString(nil, receiver.root, CFStringBuiltInEncodings.UTF8.rawValue)
            var values: [UnsafeRawPointer?] = [root.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }]
            var callbacks = kCFTypeArrayCallBacks
            let paths = CFArrayCreate(nil, &values, 1, &callbacks)
            let flags = FSEventStreamCreateFlags(kFSEventStreamCreateFlagFileEvents | kFSEventStreamCreateFlagNoDefer)
            guard let paths,
                let stream = FSEventStreamCreate(
                    nil, callback, &context, paths, FSEventStreamEventId(kFSEventStreamEventIdSinceNow), 0.01, flags)
            else {
                receiver.emit(.notice("cannot watch files with FSEvents: polling every 1s instead"))
                PollingWatch(root: receiver.root, scope: receiver.scope, emit: receiver.emit).run(
                    interval: .seconds(1), stop: stop, ready: ready)
                return
            }
            FSEventStreamSetDispatchQueue(stream, DispatchQueue(label: "startup.watch.fsevents"))
            guard FSEventStreamStart(stream) else {
                FSEventStreamInvalidate(stream)
                FSEventStreamRelease(stream)
                receiver.emit(.notice("cannot start an FSEvents stream: polling every 1s instead"))
                PollingWatch(root: receiver.root, scope: receiver.scope, emit: receiver.emit).run(
                    interval: .seconds(1), stop: stop, ready: ready)
                return
            }
            ready()
            _ = FileChangeSource.waitReadable(nil, stop: stop)
            FSEventStreamStop(stream)
            FSEventStreamInvalidate(stream)
            FSEventStreamRelease(stream)
            withExtendedLifetime(receiver) {}
        }
    }
#endif
