/* bench-readprobe.so: a read() probe for evdev readers the daemon-vm benchmark cannot change
 * (libinput), loaded with LD_PRELOAD.
 *
 *   BENCH_PROBE_OUT=FILE LD_PRELOAD=/path/bench-readprobe.so libinput-debug-events ...
 *
 * For every read() (or __read_chk(), its _FORTIFY_SOURCE form) from an input device node (character major 13) it counts the events and, per
 * SYN_REPORT, takes the same latency as bench-floor: one clock_gettime(CLOCK_MONOTONIC) after the
 * read() returned, minus the SYN_REPORT's kernel timestamp (libinput asks for CLOCK_MONOTONIC).
 * At exit it writes "probe events=N frames=N dropped=N reads=N lat_n=N lat_p50=N lat_p99=N
 * lat_max=N" to FILE.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/input.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "bench-latency.h"

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_read_chk)(int, void *, size_t, size_t);
/* Per descriptor: 0 unknown, 1 input node, -1 other; forgotten by close() (libudev reads sysfs
 * files with read() on descriptors that are later reused for the device). */
static signed char is_input[4096];
static int (*real_close)(int);
static struct latency lat;
static unsigned long long events, frames, dropped, reads;

__attribute__((constructor)) static void probe_start(void) {
    real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    real_read_chk = (ssize_t (*)(int, void *, size_t, size_t))dlsym(RTLD_NEXT, "__read_chk");
    real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
    latency_init(&lat);
}

__attribute__((destructor)) static void probe_end(void) {
    const char *path = getenv("BENCH_PROBE_OUT");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) return;
    fprintf(f, "probe events=%llu frames=%llu dropped=%llu reads=%llu", events, frames, dropped, reads);
    latency_print(f, &lat);
    fprintf(f, "\n");
    fclose(f);
}

static ssize_t observe(int fd, const void *buffer, ssize_t r) {
    if (r <= 0 || fd < 0 || fd >= (int)sizeof is_input) return r;
    if (!is_input[fd]) {
        struct stat st;
        is_input[fd] = (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 13) ? 1 : -1;
    }
    if (is_input[fd] < 0) return r;
    int64_t now = monotonic_us();
    reads++;
    const struct input_event *ev = buffer;
    size_t n = (size_t)r / sizeof *ev;
    events += n;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].type != EV_SYN) continue;
        if (ev[i].code == SYN_DROPPED) dropped++;
        else if (ev[i].code == SYN_REPORT) {
            frames++;
            latency_add(&lat, now - ((int64_t)ev[i].input_event_sec * 1000000 + ev[i].input_event_usec));
        }
    }
    return r;
}

ssize_t read(int fd, void *buffer, size_t size) { return observe(fd, buffer, real_read(fd, buffer, size)); }

/* What read() becomes in programs built with _FORTIFY_SOURCE (Debian's libevdev and libinput). */
ssize_t __read_chk(int fd, void *buffer, size_t size, size_t buffer_size) {
    return observe(fd, buffer, real_read_chk(fd, buffer, size, buffer_size));
}

int close(int fd) {
    if (fd >= 0 && fd < (int)sizeof is_input) is_input[fd] = 0;
    return real_close(fd);
}
