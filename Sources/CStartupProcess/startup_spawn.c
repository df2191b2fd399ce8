// In C, as Swift code cannot run in a child that shares its parent's memory (the runtime
// may allocate or take a lock there), and glibc's posix_spawn maps and unmaps a new stack for every child, which on
// a storm of short commands cost about 5 µs a spawn on the engine's thread (see ChildSpawn.swift).
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define _GNU_SOURCE
#include "startup_spawn.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/// What the child reads, and where it leaves the errno of a failed step (memory is shared until the exec).
struct child_arguments {
    const char *path;
    char *const *argv;
    char *const *envp;
    const struct startup_spawn_setup *setup;
    int error;
};

/// The child's stack: one per spawning thread, made at its first spawn and kept (the parent waits while the child
/// uses it, so one spawn at a time uses it).
static __thread char *child_stack;
static const size_t child_stack_size = 64 * 1024;

/// The child, between the clone and the exec, runs on the parent's memory with every signal blocked: raw system
/// calls only, and no sanitizer code at all (it would update the calling thread's sanitizer state from the child).
#if defined(__has_attribute) && __has_attribute(disable_sanitizer_instrumentation)
#define CHILD_CODE __attribute__((disable_sanitizer_instrumentation))
#else
#define CHILD_CODE __attribute__((no_sanitize("thread", "address", "undefined")))
#endif

/// Every signal: the kernel's mask is 64 bits on x86_64 and arm64.
static const uint64_t every_signal = ~(uint64_t)0;

/// Sets every signal to its default, but those of `kept` that are ignored or default already, glibc's own two (32
/// and 33) included: its posix_spawn leaves them ignored in its children, so they may come ignored from whoever
/// started `startup`. The child's dispositions are its own (no CLONE_SIGHAND). The kernel's `struct sigaction`
/// (32 bytes on x86_64 and arm64) starts with the handler, and all zeros is SIG_DFL, no flags, an empty mask.
CHILD_CODE static void reset_signals(uint64_t kept) {
    const uint64_t default_action[4] = {0, 0, 0, 0};
    for (int signal = 1; signal <= 64; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        if (kept & ((uint64_t)1 << (signal - 1))) {
            uint64_t current[4] = {0, 0, 0, 0};
            if (syscall(SYS_rt_sigaction, signal, NULL, current, sizeof every_signal) != 0) continue;
            if (current[0] == (uint64_t)(uintptr_t)SIG_DFL || current[0] == (uint64_t)(uintptr_t)SIG_IGN) continue;
        }
        syscall(SYS_rt_sigaction, signal, default_action, NULL, sizeof every_signal);
    }
}

/// Gives the child `given[0...2]` as its descriptors 0, 1 and 2 (-1: keep), without close-on-exec. A source below 3
/// that is not its own target is first copied above 2, so no step overwrites what a later one copies. Returns 0 or
/// -1 (errno set).
CHILD_CODE static int set_standard_descriptors(const int given[3]) {
    int sources[3] = {given[0], given[1], given[2]};
    for (int target = 0; target < 3; target++) {
        int source = sources[target];
        if (source < 0 || source > 2 || source == target) continue;
        long moved = syscall(SYS_fcntl, source, F_DUPFD, 3);
        if (moved < 0) return -1;
        for (int other = target; other < 3; other++) {
            if (sources[other] == source) sources[other] = (int)moved;
        }
    }
    for (int target = 0; target < 3; target++) {
        int source = sources[target];
        if (source < 0) continue;
        long result = source == target ? syscall(SYS_fcntl, target, F_SETFD, 0) : syscall(SYS_dup3, source, target, 0);
        if (result < 0) return -1;
    }
    return 0;
}

/// Closes descriptors from 3 up by listing /proc/self/fd, where close_range is missing (Linux before 5.9, or refused
/// by a seccomp filter), as glibc's closefrom does: list, close, and list again until a listing closes nothing.
CHILD_CODE static void close_listed_descriptors(void) {
    long directory = syscall(SYS_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (directory < 0) return;
    char buffer[1024] __attribute__((aligned(8)));
    int closed = 0;
    for (;;) {
        long count = syscall(SYS_getdents64, directory, buffer, sizeof buffer);
        if (count < 0) break;
        if (count == 0) {
            if (!closed || syscall(SYS_lseek, directory, 0, SEEK_SET) < 0) break;
            closed = 0;
            continue;
        }
        for (long offset = 0; offset < count;) {
            struct dirent64 *entry = (struct dirent64 *)(buffer + offset);
            offset += entry->d_reclen;
            long descriptor = 0;
            const char *digit = entry->d_name;
            if (*digit < '0' || *digit > '9') continue;
            for (; *digit >= '0' && *digit <= '9'; digit++) descriptor = descriptor * 10 + (*digit - '0');
            if (descriptor < 3 || descriptor == directory) continue;
            syscall(SYS_close, descriptor);
            closed = 1;
        }
    }
    syscall(SYS_close, directory);
}

CHILD_CODE static int child_main(void *context) {
    struct child_arguments *arguments = context;
    const struct startup_spawn_setup *setup = arguments->setup;
    reset_signals(setup->kept_signals);
    if (setup->own_group && syscall(SYS_setpgid, 0, 0) != 0) goto failed;
    if (setup->directory != NULL && syscall(SYS_chdir, setup->directory) != 0) goto failed;
    const int standard[3] = {setup->input, setup->output, setup->error};
    if (set_standard_descriptors(standard) != 0) goto failed;
    // Everything StartupKit opens is close-on-exec; this drops what other code leaked without it.
    if (setup->closes_by_listing || syscall(SYS_close_range, 3, ~0U, 0) != 0) close_listed_descriptors();
    const uint64_t no_signals = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &no_signals, NULL, sizeof no_signals);
    syscall(SYS_execve, arguments->path, arguments->argv, arguments->envp);
failed:
    arguments->error = errno != 0 ? errno : EINVAL;
    syscall(SYS_exit, 127);
    return 127;
}

typedef int (*clone_function)(int (*)(void *), void *, int, void *, ...);

/// The C library's own `clone`. The thread sanitizer replaces `clone` with a wrapper that treats the child as a
/// fork and updates its own state from it, state this child shares with us: the sanitizer then stops the tests.
static clone_function found_clone;
static pthread_once_t clone_found = PTHREAD_ONCE_INIT;

static void find_clone(void) {
    void *library = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    void *symbol = library != NULL ? dlsym(library, "clone") : NULL;
    found_clone = symbol != NULL ? (clone_function)symbol : clone;
}

static clone_function c_library_clone(void) {
    pthread_once(&clone_found, find_clone);
    return found_clone;
}

int startup_spawn(
    pid_t *pid, const char *path, char *const argv[], char *const envp[], const struct startup_spawn_setup *setup) {
    if (child_stack == NULL) {
        void *stack = mmap(NULL, child_stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
        if (stack == MAP_FAILED) return errno;
        child_stack = stack;
    }
    struct child_arguments arguments = {path, argv, envp, setup, 0};
    // No handler of the parent's may run in the child, so every signal is blocked around the clone, glibc's own
    // two too (its sigfillset leaves them out); the child unblocks them once it has reset them.
    uint64_t previous = 0;
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &every_signal, &previous, sizeof previous);
    pid_t child = c_library_clone()(child_main, child_stack + child_stack_size, CLONE_VM | CLONE_VFORK | SIGCHLD, &arguments);
    int error = child < 0 ? errno : arguments.error;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &previous, NULL, sizeof previous);
    if (child > 0 && error != 0) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    }
    if (error == 0) *pid = child;
    return error;
}
#endif
