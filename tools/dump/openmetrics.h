/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * --openmetrics: the captures (--series EARLIER... --, or --rate PREVIOUS,
 * then FILE) as OpenMetrics text, every exported counter of every instance
 * a sample stamped with its capture's PerfTime100nSec (its samples' time
 * stamp), as perfbuf/openmetrics.h
 * maps its type (docs/prometheus.md). The Python package writes the same
 * bytes (python/perfbuf/_openmetrics.py).
 */
#ifndef PERFBUF_DUMP_OPENMETRICS_H
#define PERFBUF_DUMP_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dump.h"

typedef struct om_options {
    bool enabled;               /* --openmetrics */
    bool no_timestamps;         /* --no-timestamps: one capture, for a textfile collector */
    const char *prefix;         /* --metric-prefix, default "windows" */
    const char *help_names_path; /* --help-names: the Help table */
} om_options;

void om_options_init(om_options *o);

/*
 * Takes the option at argv[*i] when it is one of --openmetrics,
 * --no-timestamps, --metric-prefix NAME and --help-names FILE (advancing
 * *i past its value); false for any other. *usage is set when the option
 * lacks its value.
 */
bool om_take_option(om_options *o, int argc, char **argv, int *i, bool *usage);

/* The usage lines of those options. */
void om_usage(FILE *out);

/*
 * Writes the text of in's captures, V1 data blocks (v1 true) or V2 query
 * data. Returns the tool's exit status: 0, 1 when a --counter path
 * matched nothing or a capture has no time or the captures' times
 * do not increase (said on stderr), 2 for usage or I/O errors.
 * max_input_bytes bounds the --help-names file as every input.
 */
int dump_openmetrics(const dump_input *in, const om_options *o, bool v1, size_t max_input_bytes,
                     FILE *out);

#endif
