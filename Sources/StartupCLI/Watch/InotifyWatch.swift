import StartupSupport

#if os(Linux)
    import Glibc
    import StartupKit
    import StartupManifest

    /// The Linux side of ``FileChangeSource``: one inotify watch on each folder that could hold a match,
    /// folders added as they appear, an overflow reported as "anything may have changed" (and the tree
    /// looked at again for folders whose creation it hid). Runs on the source's thread.
    struct InotifyWatch {
        /// Why inotify cannot be used, in words.
        struct Unavailable: Error {
            var reason: String
        }

        /// The events asked for on each folder.
        private static let mask: UInt32 =
            inCloseWrite | inAttrib | inMovedFrom | inMovedTo | inCreate | inDelete | inOnlyDir | inDontFollow | inExclUnlink

        // The Linux ABI's values (<sys/inotify.h>), spelled once.
        private static let inAttrib: UInt32 = 0x0000_0004
        private static let inCloseWrite: UInt32 = 0x0000_0008
        private static let inMovedFrom: UInt32 = 0x0000_0040
        private static let inMovedTo: UInt32 = 0x0000_0080
        private static let inCreate: UInt32 = 0x0000_0100
        private static let inDelete: UInt32 = 0x0000_0200
        private static let inQueueOverflow: UInt32 = 0x0000_4000
        private static let inIgnored: UInt32 = 0x0000_8000
        private static let inOnlyDir: UInt32 = 0x0100_0000
        private static let inDontFollow: UInt32 = 0x0200_0000
        private static let inExclUnlink: UInt32 = 0x0400_0000
        private static let inIsDir: UInt32 = 0x4000_0000
        private static let inNonBlock: Int32 = 0o4000
        private static let inCloseOnExec: Int32 = 0o2000000
        /// The size of `struct inotify_event` before its name.
        private static let eventHeader = 16

        private let descriptor: Int32
        private let root: String
        private let scope: WatchScope
        private let emit: @Sendable (FileChangeSource.Event) -> Void
        /// The folder of each watch descriptor.
        private var folders: [Int32: WatchPath] = [:]
        /// Whether running out of watches has been reported since the last time there were enough.
        private var hasReportedShortage = false

        /// Opens an inotify instance.
        ///
        /// - Throws: ``Unavailable`` when the system refuses one (`fs.inotify.max_user_instances` reached).
        init(root: String, scope: WatchScope, emit: @escaping @Sendable (FileChangeSource.Event) -> Void) throws(Unavailable) {
            let descriptor = inotify_init1(Self.inNonBlock | Self.inCloseOnExec)
            guard descriptor >= 0 else {
                let code = errno
                // EMFILE: the process's descriptors, or the user's inotify instances, are used up.
                let limit =
                    code == EMFILE
                    ? " (no descriptor left, or fs.inotify.max_user_instances, \(Self.limit("max_user_instances")), reached)" : ""
                throw Unavailable(reason: "cannot watch files with inotify: \(errnoDescription(code))\(limit)")
            }
            self.descriptor = descriptor
            self.root = root
            self.scope = scope
            self.emit = emit
        }

        /// Watches until `stop` is readable, then closes the instance.
        mutating func run(stop: Int32, ready: () -> Void) {
            defer { close(descriptor) }
            _ = addTree(WatchPath("."), listingFiles: false)
            ready()
            let capacity = 64 * 1_024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            defer { buffer.deallocate() }
            while !FileChangeSource.waitReadable(descriptor, stop: stop) {
                let count = read(descriptor, buffer, capacity)
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    emit(.notice("watching files stopped: reading inotify events failed: \(errnoDescription(errno))"))
                    return
                }
                let changes = handle(UnsafeRawBufferPointer(start: buffer, count: count))
                if !changes.isEmpty { emit(.changes(changes)) }
            }
        }

        /// The changes of one read's events, with the watches they call for added or removed.
        private mutating func handle(_ bytes: UnsafeRawBufferPointer) -> [WatchChange] {
            var changes: [WatchChange] = []
            var offset = 0
            while offset + Self.eventHeader <= bytes.count {
                let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = bytes[(offset + Self.eventHeader)..<min(bytes.count, offset + Self.eventHeader + length)]
                let name = Array(nameBytes.prefix { $0 != 0 })
                offset += Self.eventHeader + length
                if mask & Self.inQueueOverflow != 0 {
                    changes.append(.overflow)
                    // Lost events may have made folders: look again (a watched folder keeps its watch).
                    _ = addTree(WatchPath("."), listingFiles: false)
                    continue
                }
                if mask & Self.inIgnored != 0 {
                    folders[wd] = nil
                    continue
                }
                guard !name.isEmpty, let folder = folders[wd] else { continue }
                let path = WatchPath(names: folder.names + [name])
                guard !scope.isIgnored(path) else { continue }
                if mask & Self.inIsDir != 0 {
                    if mask & (Self.inCreate | Self.inMovedTo) != 0 {
                        changes.append(.path(path))
                        changes += addTree(path, listingFiles: true)
                    } else if mask & (Self.inDelete | Self.inMovedFrom) != 0 {
                        removeWatches(under: path)
                        changes.append(.folder(path))
                    } else {
                        changes.append(.path(path))
                    }
                } else if mask & Self.inCreate != 0 {
                    // A new file is reported when it is closed after writing; what is made whole at once (a
                    // link, a hard link, a device) has no such close.
                    var info = stat()
                    let absolute = FolderScan.absolute(path, root: root)
                    if lstat(absolute, &info) == 0, info.st_mode & S_IFMT != S_IFREG || info.st_nlink > 1 {
                        changes.append(.path(path))
                    }
                } else {
                    changes.append(.path(path))
                }
            }
            return changes
        }

        /// Watches `start` and the folders under it that could hold a match; with `listingFiles`, returns the
        /// files and folders found under `start` (a folder that appeared with its files already in it).
        private mutating func addTree(_ start: WatchPath, listingFiles: Bool) -> [WatchChange] {
            var found: [WatchChange] = []
            var shortOf = 0
            var firstMissed: WatchPath?
            FolderScan.walk(root: root, from: start, scope: scope) { folder, absolute, entries in
                let wd = inotify_add_watch(descriptor, absolute, Self.mask)
                if wd < 0 {
                    let code = errno
                    if code == ENOSPC {
                        shortOf += 1
                        if firstMissed == nil { firstMissed = folder }
                    } else if code != ENOENT && code != ENOTDIR {
                        emit(.notice("cannot watch \(MessageQuoting.quoted(folder.text)): \(errnoDescription(code))"))
                    }
                    return false
                }
                folders[wd] = folder
                if listingFiles { found += entries.filter { !$0.isFolder && !scope.isIgnored($0.path) }.map { .path($0.path) } }
                return true
            }
            if shortOf > 0, !hasReportedShortage, let firstMissed {
                hasReportedShortage = true
                emit(.notice(Self.shortageMessage(missed: shortOf, first: firstMissed)))
            }
            return found
        }

        /// Ends the watches of `folder` and the folders under it (removed or moved away; moved within the
        /// watched folders, it is watched again where it arrives).
        private mutating func removeWatches(under folder: WatchPath) {
            for (wd, path) in folders where path.isInside(folder) {
                inotify_rm_watch(descriptor, wd)
                folders[wd] = nil
            }
        }

        /// What running out of inotify watches means, and how to raise the limit.
        static func shortageMessage(missed: Int, first: WatchPath, limit: String = limit("max_user_watches")) -> String {
            let raised = max(524_288, (Int(limit) ?? 65_536) * 4)
            return "out of inotify watches (fs.inotify.max_user_watches is \(limit)): \(MessageQuoting.quoted(first.text))"
                + (missed == 1 ? "" : " and \(missed - 1) more folder\(missed == 2 ? "" : "s")")
                + " and what is under them are not watched,"
                + " so changes there reload nothing; raise the limit with"
                + " `sudo sysctl fs.inotify.max_user_watches=\(raised)` (add it to /etc/sysctl.conf to keep it) and start the run again"
        }

        /// The value of `/proc/sys/fs/inotify/<name>`, or `unknown`.
        static func limit(_ name: String) -> String {
            guard let file = fopen("/proc/sys/fs/inotify/" + name, "r") else { return "unknown" }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 32)
            guard fgets(&line, Int32(line.count), file) != nil else { return "unknown" }
            let digits = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).filter(\.isNumber)
            return digits.isEmpty ? "unknown" : digits
        }
    }
#endif
