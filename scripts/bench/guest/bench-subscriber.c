/* bench-subscriber: the daemon-vm benchmark's client of touchd.
 *
 *   bench-subscriber SOCKET [MODE]
 *
 * MODE is what it subscribes to:
 *   input    (default) topic touches with "touch_samples":"input": a message per input frame
 *   display  topic touches, the default form: moves once per display frame, samples coalesced
 *   kiosk    topics hits and actions: no touch messages at all
 *   frames   topic touches with "touch_samples":"frames": a touch_frame message per input frame
 * Connects, reads the hello, subscribes, waits for the reply and prints "ready". Then it read()s
 * whatever touchd sent (up to 64 KiB a read) and takes the latency of each complete `touch`
 * message (`hit` message in kiosk mode, `touch_frame` in frames mode): one clock_gettime(CLOCK_MONOTONIC) when the read()
 * returned, minus the message's `time` (the kernel's event timestamp of its newest sample,
 * CLOCK_MONOTONIC seconds with microseconds). It also checks `seq` for gaps (dropped messages) and
 * counts the samples (a moved message and each entry of its `coalesced`).
 * On SIGUSR2 it prints what it saw so far as "cold lat_n=N lat_p50=N lat_p99=N lat_max=N" (the
 * daemon-vm bench's unmeasured first play: a fresh daemon's first touches) and starts counting
 * afresh. On SIGINT, SIGTERM or the daemon closing, it prints one line:
 * "subscriber messages=N touches=N began=N moved=N ended=N cancelled=N samples=N hits=N actions=N
 *  frames=N gaps=N reads=N lat_n=N lat_p50=N lat_p99=N lat_max=N moved_p50=N moved_p99=N" (microseconds;
 *  moved_: the latencies of the `moved` touch messages alone, -1 without any).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "bench-latency.h"

static volatile sig_atomic_t stop, restart;
static void on_signal(int s) { (void)s; stop = 1; }
static void on_restart(int s) { (void)s; restart = 1; }

static char buf[1 << 17];
static size_t used;

static unsigned long long messages, touches, began, moved, ended, cancelled, samples, hits, actions, frames, gaps, reads, last_seq;
static struct latency lat, moved_lat;
static int kiosk;

/* The entries of a moved message's `coalesced` (its last member): the arrays after its opening. */
static unsigned long long coalesced_samples(const char *line) {
    const char *p = strstr(line, "\"coalesced\":[");
    if (!p) return 0;
    unsigned long long n = 0;
    for (p += 13; *p; p++) if (*p == '[') n++;
    return n;
}

/* The message's latency, read at `now` (us), added to `to`. */
static void add_latency(struct latency *to, const char *line, int64_t now) {
    const char *t = strstr(line, "\"time\":");
    if (t) latency_add(to, now - llround(strtod(t + 7, NULL) * 1e6));
}

/* " moved_p50=N moved_p99=N" */
static void print_moved(FILE *f) {
    int32_t p50 = latency_percentile(&moved_lat, 50), p99 = latency_percentile(&moved_lat, 99);
    fprintf(f, " moved_p50=%d moved_p99=%d", p50, p99);
}

static long long number_after(const char *line, const char *key) {
    const char *p = strstr(line, key);
    return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* One complete line (NUL-terminated), read at `now` (us). Returns 1 for the subscribe reply. */
static int take(const char *line, int64_t now) {
    messages++;
    long long seq = number_after(line, "{\"seq\":");
    if (seq > 0) {
        if (last_seq && (unsigned long long)seq != last_seq + 1) gaps++;
        last_seq = (unsigned long long)seq;
    }
    if (strstr(line, "\"type\":\"reply\"")) return 1;
    if (strstr(line, "\"type\":\"hit\"")) {
        hits++;
        if (kiosk) add_latency(&lat, line, now);
        return 0;
    }
    if (strstr(line, "\"type\":\"action\"")) { actions++; return 0; }
    if (strstr(line, "\"type\":\"touch_frame\"")) { frames++; add_latency(&lat, line, now); return 0; }
    if (!strstr(line, "\"type\":\"touch\"")) return 0;
    touches++;
    if (strstr(line, "\"phase\":\"moved\"")) {
        moved++;
        samples += 1 + coalesced_samples(line);
        /* The moves' own latencies too, apart from the touch-downs' and lifts', which their
         * frame's dispatch delays. */
        if (!kiosk) add_latency(&moved_lat, line, now);
    }
    else if (strstr(line, "\"phase\":\"began\"")) began++;
    else if (strstr(line, "\"phase\":\"ended\"")) ended++;
    else if (strstr(line, "\"phase\":\"cancelled\"")) cancelled++;
    if (!kiosk) add_latency(&lat, line, now);
    return 0;
}

/* Reads once; handles the complete lines. Returns the number of subscribe replies, -1 at the end. */
static int read_once(int fd) {
    ssize_t n = read(fd, buf + used, sizeof buf - 1 - used);
    if (n < 0 && errno == EINTR) return 0;
    if (n <= 0) return -1;
    int64_t now = monotonic_us();
    reads++;
    used += (size_t)n;
    buf[used] = 0;
    int replies = 0;
    char *start = buf, *nl;
    while ((nl = memchr(start, '\n', used - (size_t)(start - buf)))) {
        *nl = 0;
        replies += take(start, now);
        start = nl + 1;
    }
    used -= (size_t)(start - buf);
    memmove(buf, start, used);
    if (used == sizeof buf - 1) { fprintf(stderr, "bench-subscriber: a line longer than %zu bytes\n", used); return -1; }
    return replies;
}

int main(int argc, char **argv) {
    const char *mode = argc == 3 ? argv[2] : "input";
    const char *subscribe;
    if (argc < 2 || argc > 3) { fprintf(stderr, "usage: bench-subscriber SOCKET [input|display|kiosk|frames]\n"); return 2; }
    if (!strcmp(mode, "input")) subscribe = "{\"cmd\":\"subscribe\",\"id\":1,\"topics\":[\"touches\"],\"touch_samples\":\"input\"}\n";
    else if (!strcmp(mode, "display")) subscribe = "{\"cmd\":\"subscribe\",\"id\":1,\"topics\":[\"touches\"]}\n";
    else if (!strcmp(mode, "frames")) subscribe = "{\"cmd\":\"subscribe\",\"id\":1,\"topics\":[\"touches\"],\"touch_samples\":\"frames\"}\n";
    else if (!strcmp(mode, "kiosk")) { subscribe = "{\"cmd\":\"subscribe\",\"id\":1,\"topics\":[\"hits\",\"actions\"]}\n"; kiosk = 1; }
    else { fprintf(stderr, "bench-subscriber: unknown mode %s\n", mode); return 2; }
    latency_init(&lat);
    latency_init(&moved_lat);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: read() returns EINTR */
    sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = on_restart;
    sigaction(SIGUSR2, &sa, NULL);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", argv[1]);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) { perror(argv[1]); return 1; }
    if (write(fd, subscribe, strlen(subscribe)) != (ssize_t)strlen(subscribe)) { perror("write"); return 1; }
    int r;
    while ((r = read_once(fd)) == 0 && !stop) {}
    if (r < 0) { fprintf(stderr, "bench-subscriber: no reply to subscribe\n"); return 1; }
    printf("ready\n");
    fflush(stdout);
    messages = 0; reads = 0;
    while (!stop && read_once(fd) >= 0) {
        if (!restart) continue;
        restart = 0;
        printf("cold");
        latency_print(stdout, &lat);
        printf("\n");
        fflush(stdout);
        lat.count = 0;
        moved_lat.count = 0;
        messages = touches = began = moved = ended = cancelled = samples = hits = actions = frames = gaps = reads = 0;
    }
    printf("subscriber messages=%llu touches=%llu began=%llu moved=%llu ended=%llu cancelled=%llu samples=%llu hits=%llu actions=%llu frames=%llu gaps=%llu reads=%llu",
           messages, touches, began, moved, ended, cancelled, samples, hits, actions, frames, gaps, reads);
    latency_print(stdout, &lat);
    print_moved(stdout);
    printf("\n");
    return 0;
}
