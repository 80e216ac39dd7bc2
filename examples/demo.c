/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/demo.c -- the lock story on 5 local masters, told step by step.
 * Started by `make demo` (or `sh scripts/dev.sh demo`). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "redlock.h"
#include "servers.h"

static double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static int step(const char *what, int rc, redlock_lock *l, const struct timespec *t0)
{
    printf("  %-44s %-8s %7.2f ms", what, rc == 0 ? "ok" : "refused", ms_since(t0));
    if (rc == 0)
        printf("  (validity %lld ms, %zu nodes OK)\n", (long long)redlock_lock_validity(l),
               redlock_lock_nodes_ok(l));
    else
        printf("\n      -> %s\n", redlock_lock_errstr(l));
    return rc;
}

int main(void)
{
    char err[256];
    rlt_servers *s;
    redlock_client *a = NULL, *b = NULL;
    redlock_lock *la = NULL, *lb = NULL;
    redlock_options o;
    struct timespec t0;
    int rc, fails = 0;

    printf("redlock %s demo: 5 independent masters on loopback\n", redlock_version());
    if (!(s = rlt_servers_start(5, NULL, err, sizeof err))) {
        fprintf(stderr, "cannot start redis-server: %s\n", err);
        return 1;
    }
    for (int i = 0; i < 5; i++)
        printf("  master %d at %s\n", i, rlt_servers_addr(s, i));

    redlock_options_init(&o);
    o.node_timeout_ms = 50;
    o.retry_count = 2;
    o.retry_delay_ms = 50;
    o.retry_jitter_ms = 25;
    /* These masters were started a moment ago by this program and never
     * held a lock: nothing to forget, so no restart guard (which would
     * not count them for a ttl, docs/safety.md). */
    o.restart_guard_ms = 0;
    if (redlock_client_new(&a, NULL, rlt_servers_addrs(s), 5, &o, err, sizeof err) != 0 ||
        redlock_client_new(&b, NULL, rlt_servers_addrs(s), 5, &o, err, sizeof err) != 0) {
        fprintf(stderr, "client: %s\n", err);
        return 1;
    }
    redlock_client_wait_connected(a, 5, 2000);
    redlock_client_wait_connected(b, 5, 2000);
    redlock_lock_new(&la, a, "orders:42", 9);
    redlock_lock_new(&lb, b, "orders:42", 9);

    printf("\nclient A and client B both want \"orders:42\" (ttl 10 s):\n");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fails += step("A acquires", redlock_acquire(la, 10000), la, &t0) != 0;
    printf("      value %s on %d of 5 masters\n", redlock_lock_value(la, NULL),
           rlt_servers_count_key(s, "orders:42", 9));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fails += step("B tries while A holds", redlock_try_acquire(lb, 10000), lb, &t0) == 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fails += step("A extends to 30 s", redlock_extend(la, 30000), la, &t0) != 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = redlock_release(la);
    printf("  %-44s %-8s %7.2f ms  (deleted on %zu masters)\n", "A releases", rc ? "failed" : "ok",
           ms_since(&t0), redlock_lock_nodes_ok(la));
    fails += rc != 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fails += step("B tries again", redlock_try_acquire(lb, 10000), lb, &t0) != 0;
    fails += redlock_release(lb) != 0;

    printf("\nkilling 3 of 5 masters (kill -9): no quorum is possible any more\n");
    for (int i = 0; i < 3; i++)
        rlt_servers_kill(s, i);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = step("A acquires (fails fast, keys rolled back)", redlock_try_acquire(la, 10000), la, &t0);
    fails += rc == 0;
    printf("      keys left on the 2 survivors: %d\n", rlt_servers_count_key(s, "orders:42", 9));

    redlock_lock_free(la);
    redlock_lock_free(lb);
    redlock_client_free(a);
    redlock_client_free(b);
    rlt_servers_free(s);
    printf("\nmasters stopped. %s\n", fails ? "SOMETHING WENT WRONG" : "all steps behaved as expected");
    return fails ? 1 : 0;
}
