/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "harness.h"

int th_run(const th_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        th.case_failed = false;
        th.case_name = cases[i].name;
        cases[i].fn();
        if (th.case_failed) {
            th.failed++;
            fprintf(stderr, "FAIL %s\n", cases[i].name);
        } else {
            th.passed++;
        }
    }
    printf("%d passed, %d failed\n", th.passed, th.failed);
    return th.failed == 0 ? 0 : 1;
}
