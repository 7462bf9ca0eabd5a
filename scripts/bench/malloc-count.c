/* A malloc counter for touchd-bench, preloaded with LD_PRELOAD: counts every heap allocation
 * (malloc, calloc, realloc, aligned allocations) and passes it on to glibc. touchd-bench reads
 * the count through touchd_bench_allocations(). */
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static uint64_t allocations;

uint64_t touchd_bench_allocations(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

static void counted(void) { __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED); }

void *malloc(size_t n) { counted(); return __libc_malloc(n); }
void *calloc(size_t n, size_t size) { counted(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t n) { counted(); return __libc_realloc(p, n); }
void *memalign(size_t alignment, size_t n) { counted(); return __libc_memalign(alignment, n); }
void *aligned_alloc(size_t alignment, size_t n) { counted(); return __libc_memalign(alignment, n); }
int posix_memalign(void **out, size_t alignment, size_t n) {
    counted();
    void *p = __libc_memalign(alignment, n);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}
