/* bench-uinput-relay: the uinput relay floor of the daemon-vm benchmark: the least a forwarder to a
 * virtual touchscreen does.
 *
 *   bench-uinput-relay /dev/input/eventN
 *
 * Creates a uinput touchscreen as touchd's virtual touchscreen is for the benchmark's forwarding
 * layout (multitouch protocol B, INPUT_PROP_DIRECT, positions in eighths of a point: 8 x the
 * source's units), prints "device /dev/input/eventM", opens the source and prints "ready". Then
 * it poll()s and read()s the source (up to 256 events a read, until it is drained) and writes
 * each frame's events, positions scaled by 8, to its touchscreen with one write() per frame, as
 * they come. Nothing else is decoded, mapped or decided: its latency (read by bench-forward like
 * touchd's virtual touchscreen) is what any process that reads a touchscreen and plays it on a
 * uinput device cannot go below, the kernel's input core for the written events included.
 * On SIGINT or SIGTERM it prints one line: "uinput-relay events=N frames=N writes=N".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "bench-uinput.h"

static volatile sig_atomic_t stop;
static void on_signal(int s) { (void)s; stop = 1; }
/* The touchscreen, as touchd makes it for a 4095 x 2559 point window at 16 points a millimetre. */
static int create_touchscreen(void) {
    int fd = uinput_touchscreen();
    uinput_axis(fd, ABS_X, 0, 4095 * 8, 128); uinput_axis(fd, ABS_Y, 0, 2559 * 8, 128); uinput_axis(fd, ABS_PRESSURE, 0, 255, 0);
    uinput_axis(fd, ABS_MT_SLOT, 0, 15, 0); uinput_axis(fd, ABS_MT_TOUCH_MAJOR, 0, 255, 0);
    uinput_axis(fd, ABS_MT_POSITION_X, 0, 4095 * 8, 128); uinput_axis(fd, ABS_MT_POSITION_Y, 0, 2559 * 8, 128);
    uinput_axis(fd, ABS_MT_TRACKING_ID, 0, 65535, 0); uinput_axis(fd, ABS_MT_PRESSURE, 0, 255, 0);
    uinput_create(fd, "touchd bench uinput relay", BUS_VIRTUAL, 0x1d6b, 0x0f01, 1, "bench-uinput-relay");
    return fd;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: bench-uinput-relay /dev/input/eventN\n"); return 2; }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: poll() returns EINTR */
    sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL);
    int out = create_touchscreen();
    int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die(argv[1]);
    unsigned long long events = 0, frames = 0, writes = 0;
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
            size_t n = (size_t)r / sizeof buf[0];
            events += n;
            for (size_t i = 0; i < n; i++) {
                struct input_event e = buf[i];
                if (e.type == EV_SYN && e.code == SYN_DROPPED) { pending = 0; continue; }
                if (e.type == EV_ABS && (e.code == ABS_X || e.code == ABS_Y || e.code == ABS_MT_POSITION_X || e.code == ABS_MT_POSITION_Y))
                    e.value *= 8;
                if (pending < sizeof frame / sizeof frame[0]) frame[pending++] = e;
                if (e.type != EV_SYN || e.code != SYN_REPORT) continue;
                frames++;
                if (write(out, frame, pending * sizeof frame[0]) < 0 && errno != EINTR) { perror("write"); stop = 1; break; }
                writes++;
                pending = 0;
            }
            if (n < sizeof buf / sizeof buf[0]) break;
        }
    }
    printf("uinput-relay events=%llu frames=%llu writes=%llu\n", events, frames, writes);
    return 0;
}
