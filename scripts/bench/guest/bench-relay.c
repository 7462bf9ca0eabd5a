/* bench-relay: the relay floor of the daemon-vm benchmark: the least an out-of-process bridge does.
 *
 *   bench-relay /dev/input/eventN SOCKET
 *
 * Listens on the Unix stream socket SOCKET, accepts one client (bench-relay-sub), opens the node
 * with CLOCK_MONOTONIC timestamps (EVIOCSCLOCKID) and prints "ready". Then it poll()s and read()s
 * the device (up to 256 events a read, until it is drained) and writes each frame's raw events,
 * its SYN_REPORT included, to the client with one write() per frame, as they come. Nothing is
 * decoded, mapped or encoded: its CPU and its client's latency are what any daemon that reads a
 * device and hands frames to another process over a socket cannot go below.
 * On SIGINT or SIGTERM it prints one line: "relay events=N frames=N dropped=N reads=N writes=N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_signal(int s) { (void)s; stop = 1; }

/* Writes all of `n` bytes (the client reads as fast as it can; a short write is continued). */
static int write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w; n -= (size_t)w;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: bench-relay /dev/input/eventN SOCKET\n"); return 2; }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: poll() and accept() return EINTR */
    sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", argv[2]);
    unlink(argv[2]);
    if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(listener, 1) < 0) { perror(argv[2]); return 1; }
    int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (client < 0) { perror("accept"); return 1; }
    int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { perror(argv[1]); return 1; }
    int clock = CLOCK_MONOTONIC;
    if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0) { perror("EVIOCSCLOCKID"); return 1; }
    unsigned long long events = 0, frames = 0, dropped = 0, reads = 0, writes = 0;
    struct input_event buf[256], frame[1024];
    size_t pending = 0;
    struct pollfd pfd = { .fd = fd, .events = POLLIN };
    printf("ready\n");
    fflush(stdout);
    while (!stop) {
        if (poll(&pfd, 1, -1) < 0) { if (errno == EINTR) continue; perror("poll"); break; }
        if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) break;
        for (;;) {
            ssize_t r = read(fd, buf, sizeof buf);
            if (r <= 0) { if (r < 0 && errno == EINTR) continue; break; }
            reads++;
            size_t n = (size_t)r / sizeof buf[0];
            events += n;
            for (size_t i = 0; i < n; i++) {
                if (pending < sizeof frame / sizeof frame[0]) frame[pending++] = buf[i];
                if (buf[i].type != EV_SYN || (buf[i].code != SYN_REPORT && buf[i].code != SYN_DROPPED)) continue;
                if (buf[i].code == SYN_DROPPED) dropped++; else frames++;
                if (write_all(client, (const char *)frame, pending * sizeof frame[0]) < 0) { perror("write"); stop = 1; break; }
                writes++;
                pending = 0;
            }
            if (n < sizeof buf / sizeof buf[0]) break;
        }
    }
    printf("relay events=%llu frames=%llu dropped=%llu reads=%llu writes=%llu\n", events, frames, dropped, reads, writes);
    return 0;
}
