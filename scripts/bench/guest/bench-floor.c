/* bench-floor: the floor of the daemon-vm benchmark, a reader that only reads.
 *
 *   bench-floor /dev/input/eventN
 *
 * Opens the node, asks for CLOCK_MONOTONIC timestamps (EVIOCSCLOCKID), prints "ready", then
 * poll()s and read()s (up to 256 events a read, non-blocking, until the device is drained) and
 * only counts. Latency, per SYN_REPORT: one clock_gettime(CLOCK_MONOTONIC) after the read() that
 * returned it, minus its kernel timestamp. On SIGINT or SIGTERM it prints one line:
 * "floor events=N frames=N dropped=N reads=N lat_n=N lat_p50=N lat_p99=N lat_max=N" (microseconds).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "bench-latency.h"

static volatile sig_atomic_t stop;
static void on_signal(int s) { (void)s; stop = 1; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: bench-floor /dev/input/eventN\n"); return 2; }
    int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { perror(argv[1]); return 1; }
    int clock = CLOCK_MONOTONIC;
    if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0) { perror("EVIOCSCLOCKID"); return 1; }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: poll() returns EINTR */
    sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL);
    struct latency lat;
    latency_init(&lat);
    unsigned long long events = 0, frames = 0, dropped = 0, reads = 0;
    struct input_event buf[256];
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
            int64_t now = -1;
            for (size_t i = 0; i < n; i++) {
                if (buf[i].type != EV_SYN) continue;
                if (buf[i].code == SYN_DROPPED) { dropped++; continue; }
                if (buf[i].code != SYN_REPORT) continue;
                frames++;
                if (now < 0) now = monotonic_us();
                latency_add(&lat, now - ((int64_t)buf[i].input_event_sec * 1000000 + buf[i].input_event_usec));
            }
            if (n < sizeof buf / sizeof buf[0]) break;
        }
    }
    printf("floor events=%llu frames=%llu dropped=%llu reads=%llu", events, frames, dropped, reads);
    latency_print(stdout, &lat);
    printf("\n");
    return 0;
}
