/* bench-latency.h: latency samples and their percentiles, shared by the daemon-vm benchmark's
 * readers (bench-floor, bench-subscriber, bench-readprobe). Header-only, no allocation after
 * latency_init. */
#ifndef BENCH_LATENCY_H
#define BENCH_LATENCY_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LATENCY_CAPACITY (1u << 20)

struct latency {
    int32_t *us;   /* samples in microseconds */
    size_t count;
};

static inline void latency_init(struct latency *l) {
    l->us = malloc(LATENCY_CAPACITY * sizeof *l->us);
    l->count = 0;
    if (!l->us) { perror("malloc"); exit(1); }
}

static inline void latency_add(struct latency *l, int64_t us) {
    if (l->count < LATENCY_CAPACITY) l->us[l->count++] = (int32_t)us;
}

/* CLOCK_MONOTONIC in microseconds, the clock of the kernel's event timestamps once a reader asked
 * for it (EVIOCSCLOCKID), and of touchd's `time` fields. */
static inline int64_t monotonic_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int latency_compare(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile; sorts the samples. -1 without samples. */
static inline int32_t latency_percentile(struct latency *l, double p) {
    if (!l->count) return -1;
    qsort(l->us, l->count, sizeof *l->us, latency_compare);
    size_t k = (size_t)(p / 100.0 * (double)l->count + 0.999999);
    if (k < 1) k = 1;
    if (k > l->count) k = l->count;
    return l->us[k - 1];
}

/* " lat_n=N lat_p50=N lat_p99=N lat_max=N" */
static inline void latency_print(FILE *f, struct latency *l) {
    int32_t p50 = latency_percentile(l, 50), p99 = latency_percentile(l, 99);
    fprintf(f, " lat_n=%zu lat_p50=%d lat_p99=%d lat_max=%d", l->count, p50, p99, l->count ? l->us[l->count - 1] : -1);
}
#endif
