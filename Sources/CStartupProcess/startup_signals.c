// A signal handler may make only async-signal-safe calls, which Swift code cannot promise: this one is C, and it
// only writes the signal's number to a pipe that a thread of the CLI reads (see SignalPipe.swift).
#include "startup_signals.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/// The pipe's write end, or -1 before the first signal is forwarded.
static atomic_int forward_descriptor = -1;

static void forward(int signal) {
    int saved = errno;
    unsigned char number = (unsigned char)signal;
    int descriptor = atomic_load_explicit(&forward_descriptor, memory_order_relaxed);
    if (descriptor >= 0) {
        // A full pipe drops the byte: hundreds of interrupts are waiting to be read already.
        ssize_t written = write(descriptor, &number, 1);
        (void)written;
    }
    errno = saved;
}

int startup_forward_signal(int signal, int descriptor) {
    struct sigaction current;
    if (sigaction(signal, NULL, &current) != 0) return -1;
    if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) return 0;
    atomic_store(&forward_descriptor, descriptor);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward;
    sigfillset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signal, &action, NULL) == 0 ? 1 : -1;
}
