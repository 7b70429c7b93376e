/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The V2 query-data reader on arbitrary bytes. Beyond "no crash":
 *   - a rejection names an offset inside the input and a structure and field;
 *   - a strict success is a lenient success with no anomaly;
 *   - after a success every view lies inside the input, every accessor
 *     works, and a second walk sees exactly what the first one saw.
 */
#include "oracle_v2_query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return oracle_v2_query(data, size);
}
