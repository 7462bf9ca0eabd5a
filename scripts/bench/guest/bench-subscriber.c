/* bench-subscriber: the daemon-vm benchmark's client of touchd, subscribed to the touches topic.
 *
 *   bench-subscriber SOCKET
 *
 * Connects, reads the hello, sends {"cmd":"subscribe","id":1,"topics":["touches"]}, waits for the
 * reply and prints "ready". Then it read()s whatever touchd sent (up to 64 KiB a read) and, for
 * each complete `touch` message, takes the latency: one clock_gettime(CLOCK_MONOTONIC) when the
 * read() returned, minus the message's `time` (the kernel's event timestamp, CLOCK_MONOTONIC
 * seconds with microseconds). It also checks `seq` for gaps (dropped messages).
 * On SIGINT, SIGTERM or the daemon closing, it prints one line:
 * "subscriber messages=N touches=N began=N moved=N ended=N cancelled=N gaps=N reads=N
 *  lat_n=N lat_p50=N lat_p99=N lat_max=N" (microseconds).
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

static volatile sig_atomic_t stop;
static void on_signal(int s) { (void)s; stop = 1; }

static char buf[1 << 17];
static size_t used;

static unsigned long long messages, touches, began, moved, ended, cancelled, gaps, reads, last_seq;
static struct latency lat;

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
    if (!strstr(line, "\"type\":\"touch\"")) return 0;
    touches++;
    if (strstr(line, "\"phase\":\"moved\"")) moved++;
    else if (strstr(line, "\"phase\":\"began\"")) began++;
    else if (strstr(line, "\"phase\":\"ended\"")) ended++;
    else if (strstr(line, "\"phase\":\"cancelled\"")) cancelled++;
    const char *t = strstr(line, "\"time\":");
    if (t) latency_add(&lat, now - llround(strtod(t + 7, NULL) * 1e6));
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
    if (argc != 2) { fprintf(stderr, "usage: bench-subscriber SOCKET\n"); return 2; }
    latency_init(&lat);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: read() returns EINTR */
    sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", argv[1]);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) { perror(argv[1]); return 1; }
    const char *subscribe = "{\"cmd\":\"subscribe\",\"id\":1,\"topics\":[\"touches\"]}\n";
    if (write(fd, subscribe, strlen(subscribe)) != (ssize_t)strlen(subscribe)) { perror("write"); return 1; }
    int r;
    while ((r = read_once(fd)) == 0 && !stop) {}
    if (r < 0) { fprintf(stderr, "bench-subscriber: no reply to subscribe\n"); return 1; }
    printf("ready\n");
    fflush(stdout);
    messages = 0; reads = 0;
    while (!stop && read_once(fd) >= 0) {}
    printf("subscriber messages=%llu touches=%llu began=%llu moved=%llu ended=%llu cancelled=%llu gaps=%llu reads=%llu",
           messages, touches, began, moved, ended, cancelled, gaps, reads);
    latency_print(stdout, &lat);
    printf("\n");
    return 0;
}
