#ifndef TOUCHD_CLINUX_H
#define TOUCHD_CLINUX_H
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <stddef.h>
#include <stdint.h>

/* SO_PEERCRED's struct ucred needs _GNU_SOURCE in some headers: mirror it. */
struct touchd_ucred { int pid; unsigned int uid; unsigned int gid; };

/* accept4 and pipe2 are declared only under _GNU_SOURCE. */
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
int pipe2(int pipefd[2], int flags);

/* A pipe whose two ends are close-on-exec from the start: no child spawned by another thread
 * between pipe() and fcntl() can inherit them. */
static inline int touchd_pipe_cloexec(int *ends) { return pipe2(ends, O_CLOEXEC); }

static inline int touchd_peer_credentials(int fd, struct touchd_ucred *out) {
    socklen_t len = sizeof(*out);
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, out, &len);
}

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif

/* The peer's supplementary groups (SO_PEERGROUPS, Linux 4.13 and later), as they were when it
 * connected. Returns the number of groups (at most `capacity` are stored), or -1 with errno set
 * (ENOPROTOOPT on an older kernel). When the list is longer than `capacity`, the full count is
 * returned so the caller can retry with a larger buffer. */
static inline int touchd_peer_groups(int fd, unsigned int *groups, int capacity) {
    socklen_t len = (socklen_t)(capacity * sizeof(unsigned int));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == 0) return (int)(len / sizeof(unsigned int));
    if (errno == ERANGE) return (int)(len / sizeof(unsigned int));
    return -1;
}

/* The bytes of a socket's send buffer still in use (SIOCOUTQ): for a Unix stream socket, what its
 * peer has not read yet, counted with the kernel's own overhead per buffer, in the same unit as
 * SO_SNDBUF. -1 with errno set when the kernel does not tell. */
static inline int touchd_socket_unsent(int fd, int *unsent) {
    return ioctl(fd, SIOCOUTQ, unsent);
}
#include <linux/uinput.h>

/* uinput (the ioctls are function-like macros, which do not import). Each returns what ioctl
 * returns: 0, or -1 with errno set. */
static inline int touchd_uinput_set_bit(int fd, int kind, int code) {
    switch (kind) {
    case 0: return ioctl(fd, UI_SET_EVBIT, code);
    case 1: return ioctl(fd, UI_SET_KEYBIT, code);
    case 2: return ioctl(fd, UI_SET_ABSBIT, code);
    case 3: return ioctl(fd, UI_SET_PROPBIT, code);
    default: errno = EINVAL; return -1;
    }
}

static inline int touchd_uinput_abs_setup(int fd, int code, int minimum, int maximum, int resolution) {
    struct uinput_abs_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.code = (unsigned short)code;
    setup.absinfo.minimum = minimum;
    setup.absinfo.maximum = maximum;
    setup.absinfo.resolution = resolution;
    return ioctl(fd, UI_ABS_SETUP, &setup);
}

/* The device's name is cut to UINPUT_MAX_NAME_SIZE - 1 bytes. */
static inline int touchd_uinput_dev_setup(int fd, const char *name, unsigned short bus, unsigned short vendor,
                                          unsigned short product, unsigned short version) {
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    setup.id.bustype = bus;
    setup.id.vendor = vendor;
    setup.id.product = product;
    setup.id.version = version;
    return ioctl(fd, UI_DEV_SETUP, &setup);
}

static inline int touchd_uinput_set_phys(int fd, const char *phys) { return ioctl(fd, UI_SET_PHYS, phys); }
static inline int touchd_uinput_create(int fd) { return ioctl(fd, UI_DEV_CREATE); }
static inline int touchd_uinput_destroy(int fd) { return ioctl(fd, UI_DEV_DESTROY); }

/* The created device's sysfs name (inputN), zero-terminated in `out` of `size` bytes. */
static inline int touchd_uinput_sysname(int fd, char *out, unsigned int size) {
    return ioctl(fd, UI_GET_SYSNAME(size), out);
}

/* Writes `count` events (types, codes, values side by side) in one write(2); the kernel stamps
 * them. Returns what write returns. */
static inline long touchd_uinput_write(int fd, const unsigned short *types, const unsigned short *codes, const int *values,
                                       int count) {
    struct input_event events[64];
    if (count < 0 || count > 64) { errno = EINVAL; return -1; }
    memset(events, 0, sizeof events);
    for (int i = 0; i < count; i++) {
        events[i].type = types[i];
        events[i].code = codes[i];
        events[i].value = values[i];
    }
    return write(fd, events, sizeof(struct input_event) * (size_t)count);
}

/* The pages of code the process has mapped: each read-only, executable segment (PT_LOAD with
 * PF_X and without PF_W) of the program and of every library it has loaded, the kernel's vDSO
 * and any object loaded with text relocations (its code was written to) left out, as the whole
 * pages inside the segment (never a page another segment shares). Writes at most `capacity`
 * start addresses and lengths; returns how many segments there are, which is more than
 * `capacity` when some were not written. */
int touchd_code_segments(uintptr_t *starts, size_t *lengths, int capacity);

/* malloc_trim(3), which <malloc.h> declares and Swift's Glibc module leaves out: gives the free
 * pages of every heap of the C library back to the kernel. Returns 1 when some were given back. */
int touchd_malloc_trim(void);
#endif
