/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fo_run.h -- helpers of the failover tests (fo_run.c). */
#ifndef FO_RUN_H
#define FO_RUN_H

#include <stddef.h>
#include <stdint.h>

#define FO_DIR "test/soak/"

/* fail the test when path is missing (the programs are built by `make failover`) */
void need_file(const char *path);
/* need_file for every program test/soak/failover.sh runs */
void need_failover_programs(void);
/* Run a shell command, echo its output to stderr when `echo`, return its
 * exit status and copy its RESULT line (if any) into result. */
int run_capture(const char *cmd, int echo, char *result, size_t rlen);
/* The value of " key=" in a RESULT line; the test fails when missing. */
double result_num(const char *result, const char *key);
/* write text to path (the test fails on an error) */
void write_file(const char *path, const char *text);
/* A mixed-schedule test's start: the programs are there; the seed is
 * FAILOVER_SEED, else drawn from the clock (printed, to replay). */
long long mixed_setup(void);
/* A figure of a RESULT line, how it must compare ('=' equal, '>' more,
 * 'g' at least, '<' less) and with what. */
struct fo_figure {
    const char *key;
    char op;
    double v;
};
#define FO_FIGS(...) ((const struct fo_figure[]){__VA_ARGS__, {NULL, 0, 0}})
/* Every figure of fig (a list ended by a NULL key) holds in result; a
 * failure names the figure, its value and the line. */
void check_figures(const char *result, const struct fo_figure *fig);

/* Run a mixed schedule's command (its output echoed) and note `what`, how
 * long it took (*ms) and the seed that replays it.  The test fails unless
 * it gave a RESULT line (into result) with no overlap and no fencing token
 * out of order.  Its exit status. */
int mixed_run(const char *cmd, const char *what, long long seed, char *result, size_t rlen,
              int64_t *ms);

#endif
