/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* master.h -- a simulated Redis master: a pure state machine (no I/O, no
 * libevent, no real clock).  Bytes in, bytes out, the master's own time
 * passed in.  The harness (net.c) owns the connections; this API is the
 * seam between the harness and the master (docs/simulator.md). */
#ifndef SIM_MASTER_H
#define SIM_MASTER_H

#include <stddef.h>
#include <stdint.h>

typedef struct sim_buf {
    char *p;
    size_t len, cap;
} sim_buf;

typedef struct sim_master_config {
    const char *name;
    const char *password;           /* NULL: no AUTH needed */
    const char *appendonly;         /* CONFIG GET's values; NULL: "no" */
    const char *maxmemory_policy;   /* NULL: "noeviction" */
    uint64_t run_id_seed;
} sim_master_config;

typedef struct sim_master sim_master;

sim_master *sim_master_new(const sim_master_config *cfg);
void sim_master_free(sim_master *m);
/* connections: ids chosen by the master (CLIENT ID) */
long long sim_master_connect(sim_master *m);
void sim_master_disconnect(sim_master *m, long long conn);
/* Bytes the client wrote on conn at master time now_ms: every complete
 * reply is appended to *out; a partial command stays buffered.  0, or -1
 * on a protocol error or an unknown command (sim_master_error says which). */
int sim_master_feed(sim_master *m, long long conn, const char *p, size_t len, int64_t now_ms,
                    sim_buf *out);
const char *sim_master_error(const sim_master *m);
/* messages published to channels conn subscribes to, queued per conn */
int sim_master_take_pushes(sim_master *m, long long conn, sim_buf *out);
/* CLIENT KILL ID x: which connection died (-1: none) */
long long sim_master_take_killed(sim_master *m);
/* faults */
void sim_master_restart(sim_master *m, int keep_data);
/* checkers */
size_t sim_master_dbsize(sim_master *m, int64_t now_ms);
int sim_master_key(sim_master *m, const char *key, size_t klen, int64_t now_ms,
                   sim_buf *value_out, int64_t *pttl_ms);

/* sim_buf helpers (world.c) */
int sim_buf_add(sim_buf *b, const void *p, size_t len);
int sim_buf_printf(sim_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_buf_free(sim_buf *b);

#endif
