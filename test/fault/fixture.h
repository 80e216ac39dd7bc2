/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fixture.h -- set-ups shared by the fault tests (fixture.c). */
#ifndef FAULT_FIXTURE_H
#define FAULT_FIXTURE_H

#include "itest.h"
#include "proxy.h"

/* node_cb: the guards' events (UNSAFE, UNCOUNTED, COUNTED) of nodes 0 .. 2,
 * with the latest one's detail and when the last UNCOUNTED came. */
struct guard_events {
    struct event_base *base;    /* when set, each event breaks its loop */
    int unsafe[3], uncounted[3], counted[3];
    int64_t uncounted_ms[3];
    char detail[3][256];
};

void guard_events_cb(redlock_client *c, size_t node, int event, const char *detail, void *pd);
/* o's node_cb records into ev. */
void guard_events_watch(redlock_options *o, struct guard_events *ev);

/* A lock's lost-lock notices (redlock_lock_on_lost with lost_notice_cb). */
struct lost_notice {
    struct event_base *base;    /* each notice breaks its loop */
    int fired, reason;          /* how many; the last one's reason */
    int64_t at_ms, validity;    /* when it came; redlock_lock_validity() then */
};

void lost_notice_cb(redlock_lock *l, int reason, void *pd);

/* Master i resumes (after a pause): the client connects to every master
 * again, and l, acquired anew, holds its key (res) on all of them and is
 * released by all. */
void check_counted_after_resume(struct it_fix *f, int i, redlock_lock *l, const char *res);

/* A proxy in front of f's master i (the test fails when it cannot
 * start; rlp_thread_stop frees it): addrs[i] its address (kept in buf),
 * and each other entry of addrs[0 .. n-1] still NULL its master's. */
rlp_thread *proxy_in_front(struct it_fix *f, int i, char *buf, size_t size, const char **addrs);

/* n masters, each behind a proxy: px[i], its address addrs[i]; a base,
 * no client (it_fix with IT_ASYNC | IT_NOCLIENT). */
struct px_fix {
    struct it_fix f;
    int n;
    rlp_thread *px[3];
    char addr[3][32];
    const char *addrs[3];
};

void px_fix_start(struct px_fix *p, int n);
/* A client on p's base and proxies (opts NULL: it_opts()), not waiting
 * for a connection; it_fix_stop (px_fix_stop) frees it. */
redlock_client *px_fix_client(struct px_fix *p, const redlock_options *opts);
/* A blocking client on p's proxies, connected through all of them (opts
 * NULL: it_opts()); px_fix_stop frees it. */
redlock_client *px_fix_blocking_client(struct px_fix *p, const redlock_options *opts);
/* it_fix_stop, then every proxy stopped. */
void px_fix_stop(struct px_fix *p);

#endif
