/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* A program outside the perfbuf tree, built against an installed perfbuf:
 * decodes a V2 query-data file and prints its block count. */
#include <stdio.h>
#include <stdlib.h>

#include <perfbuf/v2_query.h>
#include <perfbuf/version.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 2;
    }
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    perfbuf_v2_query q;
    perfbuf_error err;
    if (perfbuf_v2_query_parse(buf, n, NULL, &q, &err) != PERFBUF_OK) {
        fprintf(stderr, "offset 0x%zx: %s.%s: %s\n", err.offset, err.structure, err.field,
                perfbuf_status_string(err.status));
        return 1;
    }
    printf("perfbuf %s: %u blocks, PerfFreq %lld\n", perfbuf_version_string(), q.block_count,
           (long long)q.perf_freq);
    return 0;
}
