/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-worker.h -- what rl-worker.c shares with rl-many.c (its --clients mode). */
#ifndef RL_WORKER_H
#define RL_WORKER_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "redlock.h"
#include "rl-common.h"

#define MAX_NODES 64
#define MAX_RES 256

/* the command line (rl-worker --help) */
struct rlw_opts {
    const char *masters, *audit, *logpath, *prefix, *block_file;
    int64_t id, nres, seconds, count, ttl, hold_min, hold_max, idle_max, node_timeout,
        connect_timeout, retry_count, retry_delay, reconnect_max, extend_pct, max_pending,
        audit_period, audit_timeout, audit_tol_us, overreport, seed, async, fencing, watchdog,
        clients;
};
extern struct rlw_opts g_opt;

/* set by the signal handlers: SIGTERM/SIGINT, SIGUSR1 (stop while holding),
 * SIGUSR2 (block the event loop during an operation) */
extern volatile sig_atomic_t g_stop, g_pause_req, g_block_req;

const char *code_name(int code);
/* one log line (a newline added) in one write(2): never torn */
void vlogline_fd(int fd, const char *fmt, va_list ap);
uint64_t rnd_next(uint64_t *state);   /* xorshift64 */
uint64_t rnd_seed(int64_t id);
/* block the calling thread's event loop (SIGUSR2): t0..t1, ms asked */
void block_loop(int64_t *t0, int64_t *t1, int64_t *ms);

/* rl-many.c: run g_opt.clients clients, each its own redlock_client on one
 * event base, logging as worker g_opt.id + k to g_opt.logpath with its id in place
 * of "%d".  0 when every client ran, else 1 (set-up failure). */
int run_many(const char *const *nodes, size_t nnodes, const redlock_options *opts);

#endif
