#ifndef TOUCHD_CFUZZSUPPORT_H
#define TOUCHD_CFUZZSUPPORT_H
#include <sys/socket.h>

/* Connects `fd` to `address` with the calling thread's effective user id set to `euid` for the
 * call (as another user's client would), then sets it back. Only the calling thread's credentials
 * change (the raw setresuid system call, not the C library's process-wide one), so other threads
 * of the process are not affected. Needs root to connect as another user; returns connect's
 * result, or -1 with errno set when the user id could not be changed. */
int touchd_fuzz_connect_as(int fd, const struct sockaddr *address, socklen_t length, unsigned int euid);

/* libFuzzer's driver (in the runtime `-sanitize=fuzzer` links): touchd-fuzz's `main` hands it the
 * command line and the function that runs one input. Only called in the libFuzzer build. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*run_one)(const unsigned char *data, unsigned long size));

#endif
