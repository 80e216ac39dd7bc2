/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-check.h -- the checker's state: what rl-check-log.c reads from the
 * worker logs and the faults file, and rl-check.c checks and reports. */
#ifndef RL_CHECK_H
#define RL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define NCODES 16
#define CODE_EFULL 12
extern const char *const rl_codes[NCODES];   /* failure codes by index */

typedef struct acq {
    char res[64];
    char value[72];
    int worker;
    int64_t before, after, valid_until, release;   /* release 0: none logged */
    int nodes_ok;
    int paused;           /* stopped itself while holding this one */
    int64_t left_ms;      /* validity left at resume */
    int64_t stopped_ms;
    int64_t seg_start, seg_until;   /* the open holding segment */
    long long token;      /* fencing token, 0: none */
    char owner[32];       /* reentrant: the owner ("" or "-": the handle alone) */
    char mode;            /* 'x' exclusive, 'r' reader, 'w' writer, 's' a permit */
    int crashed;          /* its log ends holding it (no R, no E line): killed */
} acq;

typedef struct ext {
    int64_t start, end;
    int failed, shorter;
} ext;

typedef struct fail {
    int worker;
    int64_t before, after;
    int code;
} fail;

typedef struct fault {
    int64_t start, end, back;
    char kind[32];
    char text[200];
} fault;

/* a holding interval of one resource */
typedef struct ival {
    int64_t start, end;
    size_t acq;
    const char *res;
} ival;

/* the auditor's counters (U lines): one log's last, or their sum */
typedef struct audit_sum {
    long long checks, judged, skipped, viol, unknown, ijudged, iviol;
    int64_t min_slack, max_rtt, imin_slack;   /* INT64_MAX: no slack seen */
} audit_sum;

typedef struct check {
    acq *acqs;            /* acquisitions (A lines) */
    size_t nacq, capacq;
    fail *fails;          /* failed acquires (F lines) */
    size_t nfail, capfail;
    fault *faults;        /* injected faults (X lines of the faults file) */
    size_t nfault, capfault;
    ival *segs;           /* holding segments */
    size_t nseg, capseg;
    ext *exts;            /* extends (T lines) */
    size_t next, capext;
    int64_t *ups;         /* times of "node up" events */
    size_t nups, capups;
    char **respool;       /* the resource names of multi locks' intervals */
    size_t nrespool, caprespool;
    int max_nodes;
    long long node_up, node_down;
    long long lost_notices;     /* L lines (--watchdog workers) */
    long long watchdog_moves;   /* T lines of no duration (--watchdog workers) */
    long long async_workers, small_pending;
    audit_sum audit;
    long long viol_lines, iviol_lines;   /* V lines, those while an extend was in flight */
    char first_viol[3][1100], first_iviol[3][1100];
    long long ext_inflight, ext_inflight_above;
    long long loop_blocks, loop_blocks_inflight;
    long long y_setresets, y_hostile;    /* -1: no Y line */
    char kinds_seen[64];                 /* K lines: the lock kinds of the run */
    long long nested_holds, partial_releases, reads, writes, multi_acqs;
    int permits;                         /* K semaphore P (or --permits) */
    long long leftover_keys, leftover_scanned;   /* Z line; -1: no scan */
    char c_figures[512];                 /* C lines' text, for the RESULT line */
} check;

/* the semaphore's figures (rl-check-sem.c) */
typedef struct sem_report {
    long long acqs, max_holders, shares, over, crashed, returned;
} sem_report;

void check_init(check *ck);
void check_free(check *ck);
/* rl-check-log.c: 0, or -1 after printing why */
int read_log(check *ck, const char *path, int file_index);
int read_faults(check *ck, const char *path);
/* close the open holding segment of acquisition i at time t */
void seg_close(check *ck, size_t i, int64_t t);
/* rl-check-sem.c: the semaphore's rule on the segments v[0..n), sorted by
 * resource then start; prints its findings */
void check_permits(const check *ck, const ival *v, size_t n, sem_report *s);

#endif
