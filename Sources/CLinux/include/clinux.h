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

/* SO_PEERCRED's struct ucred needs _GNU_SOURCE in some headers: mirror it. */
struct touchd_ucred { int pid; unsigned int uid; unsigned int gid; };

/* accept4 is declared only under _GNU_SOURCE. */
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

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
#endif
