/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "core/order.h"

#include "core/work.h"

static void sift_down(uint64_t *v, size_t root, size_t n)
{
    for (;;) {
        PB_WORK(1);
        size_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && v[child] < v[child + 1]) {
            child++;
        }
        if (v[root] >= v[child]) {
            return;
        }
        uint64_t tmp = v[root];
        v[root] = v[child];
        v[child] = tmp;
        root = child;
    }
}

void pb_sort_u64(uint64_t *v, size_t n)
{
    for (size_t i = n / 2; i > 0; i--) {
        PB_WORK(1);
        sift_down(v, i - 1, n);
    }
    for (size_t end = n; end > 1; end--) {
        PB_WORK(1);
        uint64_t tmp = v[0];
        v[0] = v[end - 1];
        v[end - 1] = tmp;
        sift_down(v, 0, end - 1);
    }
}

/* One pass: are the included keys strictly ascending? */
static bool ascending(pb_key_reader read, const void *source, uint32_t n)
{
    bool seen = false;
    uint32_t last = 0;
    for (uint32_t i = 0; i < n; i++) {
        PB_WORK(1);
        uint32_t key;
        if (!read(source, i, &key)) {
            continue;
        }
        if (seen && key <= last) {
            return false;
        }
        seen = true;
        last = key;
    }
    return true;
}

/* At most PB_SMALL_KEYS positions: a bounded pairwise scan. */
static bool small_duplicate(pb_key_reader read, const void *source, uint32_t n,
                            uint32_t *duplicate_at)
{
    for (uint32_t i = 1; i < n; i++) {
        PB_WORK(1);
        uint32_t key;
        if (!read(source, i, &key)) {
            continue;
        }
        for (uint32_t j = 0; j < i; j++) {
            PB_WORK(1);
            uint32_t earlier;
            if (read(source, j, &earlier) && earlier == key) {
                *duplicate_at = i;
                return true;
            }
        }
    }
    return false;
}

pb_keys_result pb_keys_check(pb_key_reader read, const void *source, uint32_t n,
                             uint64_t *scratch, size_t cap, size_t *sorted_count,
                             uint32_t *duplicate_at)
{
    *sorted_count = 0;
    if (ascending(read, source, n)) {
        return PB_KEYS_ASCENDING;
    }
    if (n <= PB_SMALL_KEYS) {
        return small_duplicate(read, source, n, duplicate_at) ? PB_KEYS_DUPLICATE : PB_KEYS_SMALL;
    }
    if (scratch == NULL || cap < n) {
        return PB_KEYS_NEED_SCRATCH;
    }
    size_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
        PB_WORK(1);
        uint32_t key;
        if (read(source, i, &key)) {
            scratch[count++] = (uint64_t)key << 32 | i;
        }
    }
    pb_sort_u64(scratch, count);
    bool found = false;
    uint32_t first_later = 0;
    for (size_t k = 1; k < count; k++) {
        PB_WORK(1);
        if (scratch[k] >> 32 == scratch[k - 1] >> 32) {
            uint32_t later = (uint32_t)scratch[k];
            if (!found || later < first_later) {
                first_later = later;
            }
            found = true;
        }
    }
    if (found) {
        *duplicate_at = first_later;
        return PB_KEYS_DUPLICATE;
    }
    *sorted_count = count;
    return PB_KEYS_SORTED;
}

bool pb_keys_find_sorted(const uint64_t *sorted, size_t count, uint32_t key, uint32_t *position)
{
    size_t lo = 0;
    size_t hi = count;
    /*@ loop invariant 0 <= lo <= hi <= count;
        loop assigns lo, hi;
        loop variant hi - lo;
    */
    while (lo < hi) {
        PB_WORK(1);
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] >> 32 < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == count || sorted[lo] >> 32 != key) {
        return false;
    }
    *position = (uint32_t)sorted[lo];
    return true;
}
