/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fixture.c -- set-ups shared by the fault tests. */
#include "fixture.h"

#include <stdio.h>
#include <string.h>

#include <event2/event.h>

void guard_events_cb(redlock_client *c, size_t node, int event, const char *detail, void *pd)
{
    struct guard_events *ev = pd;
    (void)c;
    if (node >= 3)
        return;
    if (event == REDLOCK_NODE_UNSAFE)
        ev->unsafe[node]++;
    else if (event == REDLOCK_NODE_UNCOUNTED)
        ev->uncounted[node]++, ev->uncounted_ms[node] = check_now_ms();
    else if (event == REDLOCK_NODE_COUNTED)
        ev->counted[node]++;
    else
        return;
    snprintf(ev->detail[node], sizeof ev->detail[node], "%s", detail);
    if (ev->base)
        event_base_loopbreak(ev->base);
}

void guard_events_watch(redlock_options *o, struct guard_events *ev)
{
    o->node_cb = guard_events_cb;
    o->node_privdata = ev;
}

void lost_notice_cb(redlock_lock *l, int reason, void *pd)
{
    struct lost_notice *w = pd;
    w->fired++;
    w->reason = reason;
    w->at_ms = check_now_ms();
    w->validity = redlock_lock_validity(l);
    event_base_loopbreak(w->base);
}

void check_counted_after_resume(struct it_fix *f, int i, redlock_lock *l, const char *res)
{
    int n = rlt_servers_count(f->s);
    CHECK_EQ(rlt_servers_resume(f->s, i), 0);
    CHECK_RC(NULL, redlock_client_wait_connected(f->c, (size_t)n, 5000), REDLOCK_OK);
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f->s, res, strlen(res), l, n, 2000), n);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(l), (size_t)n);
}

rlp_thread *proxy_in_front(struct it_fix *f, int i, char *buf, size_t size, const char **addrs)
{
    char err[256] = "";
    rlp_thread *px = rlp_thread_start(0, "127.0.0.1", rlt_servers_port(f->s, i), err, sizeof err);
    CHECK_MSG(px != NULL, "%s", err);
    snprintf(buf, size, "127.0.0.1:%d", rlp_thread_port(px));
    for (int j = 0; j < rlt_servers_count(f->s); j++)
        if (j != i && addrs[j] == NULL)
            addrs[j] = rlt_servers_addr(f->s, j);
    addrs[i] = buf;
    return px;
}

void px_fix_start(struct px_fix *p, int n)
{
    CHECK(n >= 1 && n <= 3);
    memset(p, 0, sizeof *p);
    p->n = n;
    it_fix_start(&p->f, n, NULL, IT_ASYNC | IT_NOCLIENT);
    it_proxies(p->f.s, n, p->px, p->addr, p->addrs);
}

redlock_client *px_fix_client(struct px_fix *p, const redlock_options *opts)
{
    CHECK(p->f.nclients < IT_FIX_MAX);
    redlock_client *c = it_client_new(p->f.base, p->addrs, (size_t)p->n, opts);
    p->f.clients[p->f.nclients++] = c;
    return c;
}

redlock_client *px_fix_blocking_client(struct px_fix *p, const redlock_options *opts)
{
    CHECK(p->f.nclients < IT_FIX_MAX);
    redlock_client *c = it_client_addrs(p->addrs, (size_t)p->n, opts, (size_t)p->n);
    p->f.clients[p->f.nclients++] = c;
    return c;
}

void px_fix_stop(struct px_fix *p)
{
    it_fix_stop(&p->f);
    for (int i = 0; i < p->n; i++)
        rlp_thread_stop(p->px[i]);
}
