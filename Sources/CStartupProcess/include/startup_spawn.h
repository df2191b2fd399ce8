#ifndef STARTUP_SPAWN_H
#define STARTUP_SPAWN_H

#include <stdint.h>
#include <sys/types.h>

/// How a child is set up between its start and its exec.
struct startup_spawn_setup {
    /// The descriptors the child gets as 0, 1 and 2; -1 keeps the parent's.
    int input;
    int output;
    int error;
    /// Nonzero: the child leads a process group of its own.
    int own_group;
    /// Signals (bit n-1 for signal n) whose disposition the child keeps unless it is a handler; every other
    /// signal is set to its default.
    uint64_t kept_signals;
    /// The directory the child enters before the exec, or NULL.
    const char *directory;
    /// Nonzero: descriptors from 3 up are closed by listing /proc/self/fd, as where close_range is missing (tests).
    int closes_by_listing;
};

/// Starts `path` with `argv` and `envp` as `setup` says, in a child that shares this process's memory until it
/// has exec'd, as posix_spawn does, but on a stack the calling thread keeps from one spawn to the next, and with
/// no other system call in the parent than the clone and the signal mask around it. Every descriptor from 3 up is
/// closed in the child. Returns 0 with the child's pid in `pid`, or an errno: the clone's, or that of the child's
/// step that failed (its process group, directory, descriptors or exec; that child is reaped). Linux on x86_64 and
/// arm64 only (the kernel's `struct sigaction` is assumed).
int startup_spawn(
    pid_t *pid, const char *path, char *const argv[], char *const envp[], const struct startup_spawn_setup *setup);

#endif
