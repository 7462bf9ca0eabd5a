/* Linux system interfaces that Swift does not import directly: see include/clinux.h. */
#define _GNU_SOURCE
#include <link.h>
#include <malloc.h>
#include <sys/auxv.h>
#include "clinux.h"

struct touchd_segment_list {
    uintptr_t *starts;
    size_t *lengths;
    int capacity;
    int count;
    uintptr_t page;
    uintptr_t vdso;
};

/* Whether the object was loaded with text relocations (DT_TEXTREL, or DF_TEXTREL in DT_FLAGS):
 * the loader wrote into its code, so some of its code pages differ from the file's. */
static int touchd_has_text_relocations(const struct dl_phdr_info *info) {
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_DYNAMIC) continue;
        const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + segment->p_vaddr);
        for (; entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

static int touchd_collect_code(struct dl_phdr_info *info, size_t size, void *data) {
    struct touchd_segment_list *list = data;
    (void)size;
    if (touchd_has_text_relocations(info)) return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X) || (segment->p_flags & PF_W)) continue;
        uintptr_t first = info->dlpi_addr + segment->p_vaddr;
        uintptr_t end = first + segment->p_memsz;
        if (end < first) continue;
        if (list->vdso != 0 && list->vdso >= first && list->vdso < end) continue;
        /* Whole pages inside the segment only: a page at either end may hold another segment. */
        uintptr_t start = (first + list->page - 1) & ~(list->page - 1);
        uintptr_t stop = end & ~(list->page - 1);
        if (start < first || stop <= start) continue;
        if (list->count < list->capacity) {
            list->starts[list->count] = start;
            list->lengths[list->count] = (size_t)(stop - start);
        }
        list->count++;
    }
    return 0;
}

int touchd_code_segments(uintptr_t *starts, size_t *lengths, int capacity) {
    long page = sysconf(_SC_PAGESIZE);
    struct touchd_segment_list list = {
        .starts = starts, .lengths = lengths, .capacity = capacity < 0 ? 0 : capacity, .count = 0,
        .page = page > 0 ? (uintptr_t)page : 4096, .vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR),
    };
    dl_iterate_phdr(touchd_collect_code, &list);
    return list.count;
}

int touchd_malloc_trim(void) { return malloc_trim(0); }
