/* bench-relay-sub: the client of bench-relay, the daemon-vm benchmark's relay floor.
 *
 *   bench-relay-sub SOCKET
 *
 * Connects (retrying for up to 30 s until the relay listens), prints "ready", then read()s what
 * the relay writes (up to 64 KiB a read): raw struct input_event records. Latency, per SYN_REPORT:
 * one clock_gettime(CLOCK_MONOTONIC) when the read() returned, minus the event's kernel timestamp
 * (the relay asked for CLOCK_MONOTONIC), as bench-subscriber measures touchd's messages.
 * On SIGINT, SIGTERM or the relay closing, it prints one line:
 * "relaysub events=N frames=N reads=N lat_n=N lat_p50=N lat_p99=N lat_max=N" (microseconds).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/input.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "bench-latency.h"

static volatile sig_atomic_t stop;
static void on_signal(int s) { (void)s; stop = 1; }

static char buf[1 << 16];

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: bench-relay-sub SOCKET\n"); return 2; }
    struct latency lat;
    latency_init(&lat);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: read() returns EINTR */
    sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", argv[1]);
    int fd = -1;
    for (int tries = 0; tries < 600 && !stop; tries++) {
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0) break;
        if (fd >= 0) close(fd);
        fd = -1;
        usleep(50000);
    }
    if (fd < 0) { perror(argv[1]); return 1; }
    printf("ready\n");
    fflush(stdout);
    unsigned long long events = 0, frames = 0, reads = 0;
    size_t used = 0;
    while (!stop) {
        ssize_t n = read(fd, buf + used, sizeof buf - used);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        int64_t now = monotonic_us();
        reads++;
        used += (size_t)n;
        size_t whole = used / sizeof(struct input_event);
        for (size_t i = 0; i < whole; i++) {
            struct input_event ev;
            memcpy(&ev, buf + i * sizeof ev, sizeof ev);
            events++;
            if (ev.type != EV_SYN || ev.code != SYN_REPORT) continue;
            frames++;
            latency_add(&lat, now - ((int64_t)ev.input_event_sec * 1000000 + ev.input_event_usec));
        }
        used -= whole * sizeof(struct input_event);
        memmove(buf, buf + whole * sizeof(struct input_event), used);
    }
    printf("relaysub events=%llu frames=%llu reads=%llu", events, frames, reads);
    latency_print(stdout, &lat);
    printf("\n");
    return 0;
}
