#ifndef STARTUP_SIGNALS_H
#define STARTUP_SIGNALS_H

/// Makes `signal` write its number, as one byte, to `descriptor` each time it arrives, unless it is ignored now
/// (then it stays ignored). `descriptor` is the write end of a pipe, non-blocking so the handler never waits, and
/// the same for every signal forwarded. The handler runs with every other signal blocked, restarts the system calls
/// it interrupts and keeps `errno`. Returns 1 once `signal` is forwarded, 0 if it was left ignored, or -1 with
/// `errno` set.
int startup_forward_signal(int signal, int descriptor);

#endif
