/* bench-forward: a forwarded touch's latency, for the daemon-vm benchmark's guest.
 *
 *   bench-forward /dev/input/eventSOURCE /dev/input/eventVIRTUAL
 *
 * Reads the benchmark's touchscreen (not grabbed by touchd) and touchd's virtual touchscreen for
 * the window it is mapped to, both with CLOCK_MONOTONIC timestamps, and prints "ready". The layout
 * maps the source's axes one to one onto the window's points (4095 x 2559 points), so the virtual
 * touchscreen reports slot 0's y as 8 times the source's (eighths of a point). Each source frame's
 * kernel timestamp is kept by slot 0's y (bench-player's slot 0 moves one unit down per frame);
 * each virtual frame that moves its slot 0 is matched to the source frame of that y. Latency, per
 * matched virtual frame: one clock_gettime(CLOCK_MONOTONIC) after the read() that returned it,
 * minus the source frame's kernel timestamp. The source is drained before the virtual touchscreen
 * on every wakeup, so a virtual frame's source is known when it is read. SIGUSR2 prints what was
 * measured so far as a "cold ..." line and starts again (the unmeasured first play); on SIGINT or
 * SIGTERM it prints one line: "forward frames=N matched=N source_frames=N lat_n=N lat_p50=N
 * lat_p99=N lat_max=N" (microseconds).
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

#define YS 4096

static volatile sig_atomic_t stop, cold;
static void on_signal(int s) { if (s == SIGUSR2) cold = 1; else stop = 1; }

static int open_node(const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { perror(path); exit(1); }
    int clock = CLOCK_MONOTONIC;
    if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0) { perror("EVIOCSCLOCKID"); exit(1); }
    return fd;
}

/* A device's current slot and slot 0's y, read frame by frame. */
struct reader { int fd, slot, y0, moved; };

static int64_t stamp[YS];          /* source frame timestamp (us) by slot 0's y, 0 when unknown */
static unsigned long long source_frames, frames, matched;
static struct latency lat;

/* Reads what `r` has; for the source, stamps each frame; for the virtual touchscreen, measures. */
static void drain(struct reader *r, int is_source) {
    struct input_event buf[256];
    for (;;) {
        ssize_t n = read(r->fd, buf, sizeof buf);
        if (n <= 0) { if (n < 0 && errno == EINTR) continue; return; }
        int64_t now = is_source ? 0 : monotonic_us();
        for (size_t i = 0; i < (size_t)n / sizeof buf[0]; i++) {
            struct input_event *e = &buf[i];
            if (e->type == EV_ABS && e->code == ABS_MT_SLOT) r->slot = e->value;
            else if (e->type == EV_ABS && e->code == ABS_MT_POSITION_Y && r->slot == 0) { r->y0 = e->value; r->moved = 1; }
            else if (e->type == EV_SYN && e->code == SYN_REPORT) {
                int64_t t = (int64_t)e->input_event_sec * 1000000 + e->input_event_usec;
                if (is_source) {
                    source_frames++;
                    if (r->moved && r->y0 >= 0 && r->y0 < YS) stamp[r->y0] = t;
                } else {
                    frames++;
                    int y = r->y0 / 8;
                    if (r->moved && y >= 0 && y < YS && stamp[y]) { matched++; latency_add(&lat, now - stamp[y]); }
                }
                r->moved = 0;
            }
        }
        if ((size_t)n < sizeof buf) return;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: bench-forward SOURCE VIRTUAL\n"); return 2; }
    struct reader source = { open_node(argv[1]), 0, -1, 0 }, virtual = { open_node(argv[2]), 0, -1, 0 };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: poll() returns EINTR */
    sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL); sigaction(SIGUSR2, &sa, NULL);
    latency_init(&lat);
    struct pollfd pfd[2] = { { .fd = source.fd, .events = POLLIN }, { .fd = virtual.fd, .events = POLLIN } };
    printf("ready\n");
    fflush(stdout);
    while (!stop) {
        if (cold) {
            cold = 0;
            printf("cold frames=%llu matched=%llu", frames, matched);
            latency_print(stdout, &lat);
            printf("\n");
            fflush(stdout);
            lat.count = 0; frames = matched = source_frames = 0;
        }
        if (poll(pfd, 2, -1) < 0) { if (errno == EINTR) continue; perror("poll"); break; }
        if ((pfd[0].revents | pfd[1].revents) & (POLLERR | POLLHUP | POLLNVAL)) break;
        drain(&source, 1);
        drain(&virtual, 0);
    }
    printf("forward frames=%llu matched=%llu source_frames=%llu", frames, matched, source_frames);
    latency_print(stdout, &lat);
    printf("\n");
    return 0;
}
