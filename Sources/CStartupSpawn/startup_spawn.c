// The one part of StartupKit in C: Swift code cannot run in a child that shares its parent's memory (the runtime
// may allocate or take a lock there), and glibc's posix_spawn maps and unmaps a new stack for every child, which on
// a storm of short commands cost about 5 µs a spawn on the engine's thread (see ChildSpawn.swift).
#ifdef __linux__
#define _GNU_SOURCE
#include "startup_spawn.h"

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

/// The child, between the clone and the exec, on the parent's memory with every signal blocked: raw system calls
/// only, no sanitizer hooks (they would run the sanitizer's runtime on the parent's state).
#define CHILD_CODE __attribute__((no_sanitize("thread", "address", "undefined")))

/// Gives descriptor `from` the number `to`, without close-on-exec.
CHILD_CODE static int move_descriptor(int from, int to) {
    if (from == to) return (int)syscall(SYS_fcntl, to, F_SETFD, 0);
    return (int)syscall(SYS_dup3, from, to, 0);
}

/// Sets every signal to its default, but those of `kept` that are ignored or default already. A kernel
/// `struct sigaction` of zeros is SIG_DFL with no flags and an empty mask, on x86_64 (32 bytes) and arm64 (24).
CHILD_CODE static void reset_signals(uint64_t kept) {
    const unsigned long default_action[4] = {0, 0, 0, 0};
    for (int signal = 1; signal <= 64; signal++) {
        // glibc's own two (32 and 33) too: its posix_spawn leaves them ignored in its children, so they may
        // come ignored from whoever started `startup`. The child's dispositions are its own (no CLONE_SIGHAND).
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        if (kept & (1ULL << (signal - 1))) {
            unsigned long current[4] = {0, 0, 0, 0};
            if (syscall(SYS_rt_sigaction, signal, NULL, current, 8) != 0) continue;
            if (current[0] == (unsigned long)SIG_DFL || current[0] == (unsigned long)SIG_IGN) continue;
        }
        syscall(SYS_rt_sigaction, signal, default_action, NULL, 8);
    }
}

CHILD_CODE static int child_main(void *context) {
    struct child_arguments *arguments = context;
    const struct startup_spawn_setup *setup = arguments->setup;
    reset_signals(setup->kept_signals);
    if (setup->own_group && syscall(SYS_setpgid, 0, 0) != 0) goto failed;
    if (setup->directory != NULL && syscall(SYS_chdir, setup->directory) != 0) goto failed;
    if (setup->input >= 0 && move_descriptor(setup->input, 0) < 0) goto failed;
    if (setup->output >= 0 && move_descriptor(setup->output, 1) < 0) goto failed;
    if (setup->error >= 0 && move_descriptor(setup->error, 2) < 0) goto failed;
    // Everything StartupKit opens is close-on-exec; this drops what other code leaked without it (Linux 5.9+).
    syscall(SYS_close_range, 3, ~0U, 0);
    const unsigned long no_signals = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &no_signals, NULL, 8);
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
    // No handler of the parent's may run in the child: it unblocks signals only once it has reset them.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    pid_t child = c_library_clone()(child_main, child_stack + child_stack_size, CLONE_VM | CLONE_VFORK | SIGCHLD, &arguments);
    int error = child < 0 ? errno : arguments.error;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (child > 0 && error != 0) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    }
    if (error == 0) *pid = child;
    return error;
}
#endif
