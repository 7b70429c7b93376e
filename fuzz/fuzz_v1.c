/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V1 data-block reader on arbitrary bytes. Beyond "no crash":
 *   - a rejection names an offset inside the input, a structure and a field;
 *   - a strict success is a lenient success with no anomaly;
 *   - after a success every view lies inside the input, every accessor
 *     works (values, names, parents with and without an index, lookups),
 *     and a second walk sees exactly what the first saw.
 */
#include "oracle_v1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return oracle_v1(data, size);
}
