/* bench-player: the benchmark's touchscreen and its stream, for the daemon-vm benchmark's guest.
 *
 *   bench-player [--taps]
 *   bench-player [--taps] --evemu
 *                             print the device and the stream as an evemu recording, from
 *                             1.000000 s (to profile `touchd replay` on the same input)
 *
 * Creates a uinput touchscreen (10-slot multitouch protocol B, INPUT_PROP_DIRECT, 4095x2559 at
 * 16 units/mm, pressure and touch major) and prints "device /dev/input/eventN". Then it waits for
 * signals: SIGUSR1 plays the stream once, SIGTERM or SIGINT destroys the device and exits.
 *
 * The stream: 10 fingers land in one frame, all move every frame for 300 frames (each slot's
 * ABS_MT_SLOT, X, Y, plus ABS_X/ABS_Y of slot 0), then all lift in one frame: 302 frames and 9,988
 * events written, 1 ms apart. Every value changes in every frame, so the kernel passes every event
 * on except the first ABS_MT_SLOT 0 (slot 0 is already current on a fresh device): a reader of a
 * fresh device sees 9,987 events and 302 SYN_REPORTs.
 *
 * With --taps, the stream is 50 taps of one finger instead, each somewhere else: a touch-down
 * frame (tracking id, X, Y, pressure, touch major, BTN_TOUCH, ABS_X, ABS_Y, ABS_PRESSURE) and 50 ms
 * later its lift (tracking id -1, BTN_TOUCH, ABS_PRESSURE), a tap every 200 ms: 100 frames and 700
 * events, every one of which changes a value, so a reader of a fresh device sees all 700.
 *
 * Each frame (its events and its SYN_REPORT) is one write() to the uinput descriptor at an
 * absolute CLOCK_MONOTONIC deadline (clock_nanosleep TIMER_ABSTIME), so the frame rate is the
 * stream's whatever the player's own cost. After playing it prints
 * "played frames=N events=N span_us=N late_frames=N" (late: woke more than 100 us after its deadline).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "bench-uinput.h"

#define FINGERS 10
#define MOTION_FRAMES 300
#define FRAME_NS 1000000LL

static int create_touchscreen(void) {
    int fd = uinput_touchscreen();
    uinput_axis(fd, ABS_X, 0, 4095, 16); uinput_axis(fd, ABS_Y, 0, 2559, 16); uinput_axis(fd, ABS_PRESSURE, 0, 255, 0);
    uinput_axis(fd, ABS_MT_SLOT, 0, FINGERS - 1, 0); uinput_axis(fd, ABS_MT_TOUCH_MAJOR, 0, 255, 0);
    uinput_axis(fd, ABS_MT_POSITION_X, 0, 4095, 16); uinput_axis(fd, ABS_MT_POSITION_Y, 0, 2559, 16);
    uinput_axis(fd, ABS_MT_TRACKING_ID, 0, 65535, 0); uinput_axis(fd, ABS_MT_PRESSURE, 0, 255, 0);
    uinput_create(fd, "touchd bench touchscreen", BUS_USB, 0x1d6b, 0x0f00, 0x0111, "bench-player");
    return fd;
}

/* The stream, as frames of events; each frame ends with its SYN_REPORT. */
static struct input_event stream[16384];
static size_t frame_end[MOTION_FRAMES + 2];
/* When each frame is due, in nanoseconds after the first. */
static int64_t frame_due[MOTION_FRAMES + 2];
static size_t nevents, nframes;

#define TAPS 50
#define TAP_PERIOD_NS 200000000LL
#define TAP_HOLD_NS 50000000LL

static void put(int type, int code, int value) {
    struct input_event *ev = &stream[nevents++];
    memset(ev, 0, sizeof *ev);
    ev->type = type; ev->code = code; ev->value = value;
}

static void end_frame(void) {
    put(EV_SYN, SYN_REPORT, 0);
    frame_due[nframes] = (int64_t)nframes * FRAME_NS;
    frame_end[nframes++] = nevents;
}

static int start_x(int s) { return 300 + 350 * s; }
static int start_y(int s) { return 500 + 1000 * (s % 2); }

static void build_stream(void) {
    for (int s = 0; s < FINGERS; s++) {
        put(EV_ABS, ABS_MT_SLOT, s); put(EV_ABS, ABS_MT_TRACKING_ID, 100 + s);
        put(EV_ABS, ABS_MT_POSITION_X, start_x(s)); put(EV_ABS, ABS_MT_POSITION_Y, start_y(s));
        put(EV_ABS, ABS_MT_PRESSURE, 50 + s); put(EV_ABS, ABS_MT_TOUCH_MAJOR, 10 + s);
    }
    put(EV_KEY, BTN_TOUCH, 1); put(EV_ABS, ABS_X, start_x(0)); put(EV_ABS, ABS_Y, start_y(0)); put(EV_ABS, ABS_PRESSURE, 50);
    end_frame();
    for (int i = 1; i <= MOTION_FRAMES; i++) {
        for (int s = 0; s < FINGERS; s++) {
            put(EV_ABS, ABS_MT_SLOT, s); put(EV_ABS, ABS_MT_POSITION_X, start_x(s) + 2 * i); put(EV_ABS, ABS_MT_POSITION_Y, start_y(s) + i);
        }
        put(EV_ABS, ABS_X, start_x(0) + 2 * i); put(EV_ABS, ABS_Y, start_y(0) + i);
        end_frame();
    }
    for (int s = 0; s < FINGERS; s++) { put(EV_ABS, ABS_MT_SLOT, s); put(EV_ABS, ABS_MT_TRACKING_ID, -1); }
    put(EV_KEY, BTN_TOUCH, 0); put(EV_ABS, ABS_PRESSURE, 0);
    end_frame();
}

/* One finger tapping: each tap's values differ from the one before in every code it writes. */
static void build_taps(void) {
    for (int k = 0; k < TAPS; k++) {
        int x = 300 + 70 * k, y = 400 + 37 * k, pressure = 50 + k % 2;
        put(EV_ABS, ABS_MT_TRACKING_ID, 100 + k);
        put(EV_ABS, ABS_MT_POSITION_X, x); put(EV_ABS, ABS_MT_POSITION_Y, y);
        put(EV_ABS, ABS_MT_PRESSURE, pressure); put(EV_ABS, ABS_MT_TOUCH_MAJOR, 10 + k % 2);
        put(EV_KEY, BTN_TOUCH, 1); put(EV_ABS, ABS_X, x); put(EV_ABS, ABS_Y, y); put(EV_ABS, ABS_PRESSURE, pressure);
        end_frame();
        frame_due[nframes - 1] = k * TAP_PERIOD_NS;
        put(EV_ABS, ABS_MT_TRACKING_ID, -1); put(EV_KEY, BTN_TOUCH, 0); put(EV_ABS, ABS_PRESSURE, 0);
        end_frame();
        frame_due[nframes - 1] = k * TAP_PERIOD_NS + TAP_HOLD_NS;
    }
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void play(int fd) {
    int64_t start = now_ns() + FRAME_NS, late = 0;
    size_t first = 0;
    for (size_t f = 0; f < nframes; f++) {
        int64_t due = start + frame_due[f];
        struct timespec d = { .tv_sec = due / 1000000000, .tv_nsec = due % 1000000000 };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL) == EINTR) {}
        if (now_ns() > due + 100000) late++;
        size_t len = (frame_end[f] - first) * sizeof stream[0];
        if (write(fd, &stream[first], len) != (ssize_t)len) die("write");
        first = frame_end[f];
    }
    printf("played frames=%zu events=%zu span_us=%lld late_frames=%lld\n", nframes, nevents,
           (long long)((now_ns() - start) / 1000), (long long)late);
    fflush(stdout);
}

/* The device as evemu describes it: the same codes, ranges and resolutions as create_touchscreen. */
static const char *evemu_header =
    "# EVEMU 1.3\n"
    "# The daemon-vm benchmark's stream (scripts/bench/guest/bench-player.c --evemu)\n"
    "N: touchd bench touchscreen\n"
    "I: 0003 1d6b 0f00 0111\n"
    "P: 02 00 00 00 00 00 00 00\n"
    "B: 00 0b 00 00 00 00 00 00 00\n"
    "B: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\n"
    "B: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\nB: 01 00 04 00 00 00 00 00 00\n"
    "B: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\n"
    "B: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\n"
    "B: 03 03 00 00 01 00 80 61 06\n"
    "A: 00 0 4095 0 0 16\nA: 01 0 2559 0 0 16\nA: 18 0 255 0 0 0\nA: 2f 0 9 0 0 0\nA: 30 0 255 0 0 0\n"
    "A: 35 0 4095 0 0 16\nA: 36 0 2559 0 0 16\nA: 39 0 65535 0 0 0\nA: 3a 0 255 0 0 0\n";

static void print_evemu(void) {
    fputs(evemu_header, stdout);
    size_t first = 0;
    for (size_t f = 0; f < nframes; f++) {
        for (size_t i = first; i < frame_end[f]; i++)
            printf("E: %lld.%06lld %04x %04x %d\n", (long long)(1 + frame_due[f] / 1000000000), (long long)(frame_due[f] % 1000000000 / 1000),
                   stream[i].type, stream[i].code, stream[i].value);
        first = frame_end[f];
    }
}

int main(int argc, char **argv) {
    int taps = argc >= 2 && strcmp(argv[1], "--taps") == 0;
    int evemu = argc == 2 + taps && strcmp(argv[1 + taps], "--evemu") == 0;
    if (argc != 1 + taps + evemu) { fprintf(stderr, "usage: bench-player [--taps] [--evemu]\n"); return 2; }
    if (taps) build_taps(); else build_stream();
    if (evemu) { print_evemu(); return 0; }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1); sigaddset(&set, SIGTERM); sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int fd = create_touchscreen();
    for (;;) {
        int sig = 0;
        if (sigwait(&set, &sig) != 0) die("sigwait");
        if (sig == SIGUSR1) play(fd);
        else break;
    }
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}
