/* bench-uinput.h: making the daemon-vm benchmark's uinput touchscreens, shared by bench-player
 * (the source) and bench-uinput-relay (the relay floor's). Header-only. */
#ifndef BENCH_UINPUT_H
#define BENCH_UINPUT_H
#include <dirent.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static void die(const char *what) { perror(what); exit(1); }

/* Opens /dev/uinput for a direct touchscreen: EV_SYN, EV_KEY (BTN_TOUCH), EV_ABS, INPUT_PROP_DIRECT.
 * The axes follow with uinput_axis, then uinput_create. */
static int uinput_touchscreen(void) {
    int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (fd < 0) die("/dev/uinput");
    ioctl(fd, UI_SET_EVBIT, EV_SYN); ioctl(fd, UI_SET_EVBIT, EV_KEY); ioctl(fd, UI_SET_EVBIT, EV_ABS);
    ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH);
    ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
    return fd;
}

static void uinput_axis(int fd, int code, int min, int max, int res) {
    struct uinput_abs_setup a;
    memset(&a, 0, sizeof a);
    a.code = code; a.absinfo.minimum = min; a.absinfo.maximum = max; a.absinfo.resolution = res;
    if (ioctl(fd, UI_SET_ABSBIT, code) < 0 || ioctl(fd, UI_ABS_SETUP, &a) < 0) die("UI_ABS_SETUP");
}

/* Creates the device and prints "device /dev/input/eventN" for its node. */
static void uinput_create(int fd, const char *name, int bus, int vendor, int product, int version, const char *who) {
    struct uinput_setup s;
    memset(&s, 0, sizeof s);
    s.id.bustype = bus; s.id.vendor = vendor; s.id.product = product; s.id.version = version;
    snprintf(s.name, sizeof s.name, "%s", name);
    if (ioctl(fd, UI_DEV_SETUP, &s) < 0) die("UI_DEV_SETUP");
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");
    char sys[64] = {0}, path[128];
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sys), sys) < 0) die("UI_GET_SYSNAME");
    snprintf(path, sizeof path, "/sys/class/input/%s", sys);
    DIR *d = opendir(path);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
        if (strncmp(e->d_name, "event", 5) == 0) { printf("device /dev/input/%s\n", e->d_name); found = 1; }
    if (d) closedir(d);
    if (!found) { fprintf(stderr, "%s: no event node under %s\n", who, path); exit(1); }
    fflush(stdout);
}
#endif
