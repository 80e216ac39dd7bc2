/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* old_program.c -- a program written and compiled against the 0.1.0 header
 * (test/abi/redlock-0.1.h, a verbatim copy), linked with today's library:
 * the library has grown (options, node stats), and this program must keep
 * working and never see memory past its own, smaller structs.
 *
 *   old-program ADDR...     exit 0 when everything held
 */
#include <stdio.h>
#include <string.h>
#include "redlock-0.1.h"

#define CANARY 0x5a

/* A struct followed by bytes the library must not touch. */
struct guarded_opts { redlock_options o; unsigned char tail[256]; };
struct guarded_stats { redlock_node_stats s; unsigned char tail[256]; };
struct guarded_result { redlock_node_result r; unsigned char tail[256]; };

static int intact(const unsigned char *tail)
{
    for (int i = 0; i < 256; i++)
        if (tail[i] != CANARY)
            return 0;
    return 1;
}

#define FAIL(...) do { fprintf(stderr, "old-program: " __VA_ARGS__); fputc('\n', stderr); return 1; } while (0)

/* The options: initialised within the old struct, with the old defaults;
 * then the client. */
static int start_client(redlock_client **c, char **addr, size_t n)
{
    struct guarded_opts go;
    char err[256];

    memset(&go, CANARY, sizeof go);
    redlock_options_init(&go.o);
    if (!intact(go.tail))
        FAIL("redlock_options_init wrote past the 0.1.0 struct");
    if (go.o.node_timeout_ms != 200 || go.o.max_pending != 65536 || go.o.tls_insecure_skip_verify)
        FAIL("defaults not filled in");
    go.o.node_timeout_ms = 300;
    go.o.retry_count = 30;     /* 3 s of tries: see the acquire in main */
    go.o.retry_delay_ms = 100;
    go.o.retry_jitter_ms = 5;
    if (redlock_client_new(c, NULL, (const char *const *)addr, n, &go.o, err, sizeof err))
        FAIL("client_new: %s", err);
    if (redlock_client_wait_connected(*c, n, 5000))
        FAIL("not connected");
    return 0;
}

/* Node i's stats and its result of the lock's last operation, each within
 * the old struct; its OK votes added to *oks. */
static int check_node(redlock_client *c, redlock_lock *l, size_t i, unsigned long long *oks)
{
    struct guarded_stats gs;
    struct guarded_result gr;

    memset(&gs, CANARY, sizeof gs);
    if (redlock_client_node_stats(c, i, &gs.s))
        FAIL("node_stats");
    if (!intact(gs.tail))
        FAIL("redlock_client_node_stats wrote past the 0.1.0 struct");
    *oks += gs.s.oks;    /* (a slow master's reply may not be read yet) */
    if (!gs.s.connected || gs.s.requests < 2 || !gs.s.address ||
        strchr(gs.s.address, ':') == NULL)
        FAIL("node %zu stats: connected %d requests %llu oks %llu", i, gs.s.connected,
             (unsigned long long)gs.s.requests, (unsigned long long)gs.s.oks);
    memset(&gr, CANARY, sizeof gr);
    if (redlock_lock_node_result(l, i, &gr.r))
        FAIL("node_result");
    if (!intact(gr.tail))
        FAIL("redlock_lock_node_result wrote past the 0.1.0 struct");
    if (gr.r.vote < REDLOCK_VOTE_NONE || gr.r.vote > REDLOCK_VOTE_FULL || !gr.r.detail)
        FAIL("node %zu result: vote %d", i, gr.r.vote);
    return 0;
}

int main(int argc, char **argv)
{
    redlock_client *c = NULL;
    redlock_lock *l = NULL;
    size_t n = (size_t)(argc - 1);
    unsigned long long oks = 0;

    if (argc < 2)
        FAIL("usage: old-program ADDR...");
    if (start_client(&c, argv + 1, n))
        return 1;
    if (redlock_lock_new(&l, c, "abi", 3))
        FAIL("lock_new");
    /* The masters were just started: the restart guard (on by default since
     * 0.2.0) counts their OK votes once they are up for the ttl (+ drift,
     * and up to 1 s more: uptime is in seconds), within the retries. */
    if (redlock_acquire(l, 1000) || redlock_lock_validity(l) <= 0)
        FAIL("acquire: %s", redlock_lock_errstr(l));
    if (redlock_extend(l, 1000))
        FAIL("extend: %s", redlock_lock_errstr(l));
    for (size_t i = 0; i < n; i++)
        if (check_node(c, l, i, &oks))
            return 1;
    if (oks < 2 * (n / 2 + 1))
        FAIL("%llu OK votes counted for an acquire and an extend", oks);
    if (redlock_release(l) || redlock_lock_nodes_ok(l) != n)
        FAIL("release: %s", redlock_lock_errstr(l));
    redlock_lock_free(l);
    redlock_client_free(c);
    printf("old-program: ok against library %s\n", redlock_version());
    return 0;
}
