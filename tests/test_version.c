/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The version the headers give, the version the library reports, and the
 * project's version agree. */
#include "perfbuf/version.h"
#include "harness.h"

static void versions_agree(void)
{
    CHECK_STR(PERFBUF_VERSION_STRING, PERFBUF_PROJECT_VERSION);
    CHECK_STR(perfbuf_version_string(), PERFBUF_VERSION_STRING);
    CHECK_EQ_U(perfbuf_version_number(), PERFBUF_VERSION_NUMBER);
    char built[32];
    snprintf(built, sizeof built, "%d.%d.%d", PERFBUF_VERSION_MAJOR, PERFBUF_VERSION_MINOR,
             PERFBUF_VERSION_PATCH);
    CHECK_STR(built, PERFBUF_VERSION_STRING);
}

static const th_case cases[] = {
    TH_CASE(versions_agree),
};
TH_MAIN(cases)
