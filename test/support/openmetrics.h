/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* openmetrics.h -- a strict parser of the OpenMetrics text format, for the
 * tests of redlock_client_metrics.  It accepts what the format allows of
 * the families the library writes (counter, gauge, histogram, unknown) and
 * rejects, with a message naming the line: a missing or early "# EOF"; a
 * line without its newline; a comment other than TYPE, HELP, UNIT; a
 * family's metadata twice or after its samples, or a family that comes
 * back after another; a UNIT its name does not end with; a sample before
 * its family's TYPE or with a name its type does not have; a bad metric or
 * label name, a label twice, a label value with a raw newline or an escape
 * other than \\ \" \n; a value that is no number; the same series twice; a
 * negative counter; a histogram's buckets not in rising `le` order, not
 * cumulative, without le="+Inf", or a _count other than its +Inf bucket.
 */
#ifndef TEST_OPENMETRICS_H
#define TEST_OPENMETRICS_H

#include <stddef.h>

typedef struct om_sample {
    char *key;          /* name{l1="v1",l2="v2"}: labels sorted by name, values
                         * as written (escaped); name alone without labels */
    double value;
} om_sample;

typedef struct om_doc {
    om_sample *s;
    size_t n, cap;
    char err[256];      /* why parsing failed: "line N: ..." */
} om_doc;

/* 0, or -1 with doc->err set.  doc is filled either way; om_free it. */
int om_parse(om_doc *doc, const char *text, size_t len);
void om_free(om_doc *doc);
/* The sample with this key (labels sorted by name), or NULL. */
const om_sample *om_get(const om_doc *doc, const char *key);
/* Its value, or -1 when there is none. */
double om_value(const om_doc *doc, const char *key);

#endif
