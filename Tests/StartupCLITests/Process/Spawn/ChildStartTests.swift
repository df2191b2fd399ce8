import Testing

#if os(Linux) && (arch(x86_64) || arch(arm64))
    import CStartupProcess
    import Glibc

    /// `startup_spawn` itself, for what the spawns of the engine never meet: a system without `close_range`, and
    /// standard descriptors that overlap.
    @Suite struct ChildStartTests {
        /// What a child started by `startup_spawn` printed to its stderr (a pipe), and how it ended.
        private struct Finished {
            let status: Int32
            let errorOutput: String
        }

        /// Starts `sh -c script` with `setup`, its stderr into a pipe, and waits for it.
        private func run(_ script: String, _ setup: startup_spawn_setup) throws -> Finished {
            var pipeEnds: [Int32] = [0, 0]
            try #require(pipe(&pipeEnds) == 0)
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            defer { _ = close(pipeEnds[0]) }
            var setup = setup
            setup.error = pipeEnds[1]
            let words: [String] = ["/bin/sh", "-c", script]
            let argv = words.map { strdup($0) } + [nil]
            let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
            defer { for string in argv + envp { free(string) } }
            var pid: pid_t = 0
            let code = startup_spawn(&pid, "/bin/sh", argv, envp, &setup)
            _ = close(pipeEnds[1])
            try #require(code == 0, "startup_spawn failed: \(code)")
            var output: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = read(pipeEnds[0], &buffer, buffer.count)
                if count <= 0 { break }
                output += buffer[..<count]
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return Finished(status: status, errorOutput: String(decoding: output, as: UTF8.self))
        }

        /// A setup that keeps our standard descriptors, in a group of its own.
        private func ownGroupSetup() -> startup_spawn_setup {
            var setup = startup_spawn_setup()
            (setup.input, setup.output, setup.error) = (-1, -1, -1)
            setup.own_group = 1
            return setup
        }

        /// A descriptor leaked without close-on-exec never reaches the child: closed by `close_range`, or by listing
        /// `/proc/self/fd` where it is missing (kernels before 5.9, seccomp filters).
        @Test(arguments: [0, 1] as [Int32])
        func strayDescriptors_areClosed(byListing: Int32) throws {
            var leaked: [Int32] = [0, 0]
            try #require(pipe(&leaked) == 0)  // deliberately without O_CLOEXEC
            defer {
                _ = close(leaked[0])
                _ = close(leaked[1])
            }
            var setup = ownGroupSetup()
            setup.closes_by_listing = byListing
            let finished = try run("ls /proc/self/fd >&2", setup)
            #expect(finished.status == 0)
            let open = finished.errorOutput.split(separator: "\n")
            #expect(!open.contains("\(leaked[0])") && !open.contains("\(leaked[1])"), "\(open)")
            #expect(open.contains("0") && open.contains("1") && open.contains("2"), "\(open)")
        }

        /// Our descriptor 0 given as the child's stdout survives the step that gives the child its stdin.
        @Test func aSourceBelowThree_isNotOverwrittenBeforeItIsCopied() throws {
            var ours = [CChar](repeating: 0, count: 256)
            let length = readlink("/proc/self/fd/0", &ours, ours.count - 1)
            try #require(length > 0, "no standard input to give")
            let expected = String(decoding: ours[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var input: [Int32] = [0, 0]
            try #require(pipe(&input) == 0)
            for end in input { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            defer {
                _ = close(input[0])
                _ = close(input[1])
            }
            var setup = ownGroupSetup()
            (setup.input, setup.output) = (input[0], 0)
            // The shell's own descriptor 1 ($$), read in a command substitution: a redirection would change it first.
            let finished = try run(#"link=$(readlink /proc/$$/fd/1); echo "$link" >&2"#, setup)
            #expect(finished.status == 0)
            #expect(finished.errorOutput == expected + "\n")
        }

        /// A program that cannot be run gives the exec's errno, and no pid.
        @Test func aFailedExec_isItsErrno() throws {
            var setup = ownGroupSetup()
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("missing"), nil]
            defer { free(argv[0]) }
            var pid: pid_t = -1
            let code = startup_spawn(&pid, "/nonexistent/startup-missing", argv, argv, &setup)
            #expect(code == ENOENT)
            #expect(pid == -1, "a pid was given for a child that never ran")
        }
    }
#endif
