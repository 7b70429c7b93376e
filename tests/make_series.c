/*
 * Writes four V1 captures of the same query one second apart (DIR/s0.bin
 * .. s3.bin) for the perfbuf-dump --rate and --series test: Idle's
 * % Processor Time moves 1.5 s, 2.5 s, then 3.5 s of every 10 s.
 */
#include <stdio.h>

#include "builder_v1.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_series DIR\n");
        return 2;
    }
    for (unsigned k = 0; k < 4; k++) {
        tb_v1 v = tb_v1_sample_global();
        size_t block = tb_get_u32(&v.buf, 24) + 184 + 40; /* Idle's counter block */
        tb_patch_u32(&v.buf, 72, tb_get_u32(&v.buf, 72) + k * 10000000u);
        tb_patch_u32(&v.buf, block + 8, 1000000u + k * (1000000u + 500000u * k));
        char path[512];
        snprintf(path, sizeof path, "%s/s%u.bin", argv[1], k);
        FILE *f = fopen(path, "wb");
        if (f == NULL || fwrite(v.buf.data, 1, v.buf.len, f) != v.buf.len || fclose(f) != 0) {
            fprintf(stderr, "make_series: cannot write %s\n", path);
            return 2;
        }
        tb_free(&v.buf);
    }
    return 0;
}
