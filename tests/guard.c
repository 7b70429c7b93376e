/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* MAP_ANONYMOUS is outside strict C11 and POSIX.1-2008. */
#define _DEFAULT_SOURCE
#include "guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>

static size_t page_size(void)
{
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return info.dwPageSize;
}

guarded guard_place(const void *data, size_t len)
{
    guarded g;
    size_t page = page_size();
    size_t data_pages = (len + page - 1) / page;
    g.mapping_size = (data_pages + 1) * page;
    g.mapping = VirtualAlloc(NULL, g.mapping_size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    DWORD old;
    if (g.mapping == NULL ||
        !VirtualProtect((uint8_t *)g.mapping + data_pages * page, page, PAGE_NOACCESS, &old)) {
        fprintf(stderr, "guard page: allocation failed\n");
        exit(2);
    }
    g.bytes = (uint8_t *)g.mapping + data_pages * page - len;
    if (len > 0) {
        memcpy(g.bytes, data, len);
    }
    return g;
}

void guard_release(guarded *g)
{
    VirtualFree(g->mapping, 0, MEM_RELEASE);
    g->mapping = NULL;
    g->bytes = NULL;
}
#else
#include <sys/mman.h>
#include <unistd.h>

guarded guard_place(const void *data, size_t len)
{
    guarded g;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t data_pages = (len + page - 1) / page;
    g.mapping_size = (data_pages + 1) * page;
    g.mapping = mmap(NULL, g.mapping_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    if (g.mapping == MAP_FAILED ||
        mprotect((uint8_t *)g.mapping + data_pages * page, page, PROT_NONE) != 0) {
        fprintf(stderr, "guard page: mapping failed\n");
        exit(2);
    }
    g.bytes = (uint8_t *)g.mapping + data_pages * page - len;
    if (len > 0) {
        memcpy(g.bytes, data, len);
    }
    return g;
}

void guard_release(guarded *g)
{
    munmap(g->mapping, g->mapping_size);
    g->mapping = NULL;
    g->bytes = NULL;
}
#endif
