/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* blocking.c -- the blocking API: each call starts the asynchronous operation
 * and runs the client's private event loop until its callback ran (or,
 * with a loop thread, waits for that thread to run it: thread.c).  Only
 * for clients created without an event base, never from a callback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/client.h"

struct sync_wait {
    redlock_client *c;
    int done;
    int status;
    redlock__op *late;      /* a release's, still followed (a reference) */
};

static void sync_cb(redlock_lock *l, int status, void *privdata)
{
    struct sync_wait *w = privdata;
    w->status = status;
    if (l->late && !w->c->loop.th) {
        w->late = l->late;
        w->late->refs++;
    }
    if (w->c->loop.th)
        redlock__gate_done(&w->c->loop, &w->done);     /* on the loop thread */
    else
        w->done = 1;
}

static int check_blocking(redlock_lock *l)
{
    if (!l)
        return REDLOCK_EINVAL;
    if (l->c && !l->c->own_base) {
        redlock__lock_err(l, "blocking calls need a client created without an event base");
        return REDLOCK_EINVAL;
    }
    if (l->c && l->c->loop.depth) {
        redlock__lock_err(l, "blocking calls cannot be made from a callback");
        return REDLOCK_EINVAL;
    }
    return 0;
}

static void settle(redlock_client *c);

typedef int start_fn(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd);
typedef int start_for_fn(redlock_lock *l, int64_t wait_ms, int64_t ttl_ms, redlock_cb *cb,
                         void *pd);

/* Start the operation, then run the private loop (or, with a loop thread,
 * wait for it) until its callback ran.  The lock may be freed by a callback
 * meanwhile (a lost-lock notice may do it): after the start only the
 * client is used. */
static int run_blocking_for(redlock_lock *l, int64_t wait_ms, int64_t ttl_ms, start_fn *start,
                            start_for_fn *start_for)
{
    redlock_client *c = l ? l->c : NULL;
    struct sync_wait w = { c, 0, 0, NULL };
    int g = redlock__gate_enter(c), rc = check_blocking(l);

    if (rc == 0)
        rc = start_for ? start_for(l, wait_ms, ttl_ms, sync_cb, &w)
                       : start(l, ttl_ms, sync_cb, &w);
    if (rc == 0) {
        if (c->loop.th) {
            redlock__gate_wait(&c->loop, &w.done, -1);
        } else {
            while (!w.done)
                event_base_loop(c->loop.base, EVLOOP_ONCE);
            /* A blocking release also takes the slower masters' replies
             * (until the node timeout): its connections make no progress
             * between calls, so the node results would miss them. */
            while (w.late && w.late->after && !c->loop.closing)
                event_base_loop(c->loop.base, EVLOOP_ONCE);
            if (w.late)
                redlock__op_unref(w.late);
            settle(c);
            /* One more non-blocking turn writes out what the outcome queued
             * (the undos after a lost attempt) instead of holding it until
             * the next call. */
            if (!c->loop.closing)
                event_base_loop(c->loop.base, EVLOOP_NONBLOCK);
        }
        rc = w.status;
    }
    redlock__gate_leave(c, g);
    return rc;
}

static int run_blocking(redlock_lock *l, int64_t ttl_ms, start_fn *start)
{
    return run_blocking_for(l, 0, ttl_ms, start, NULL);
}

static int start_release(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    (void)ttl_ms;
    return redlock_release_async(l, cb, pd);
}

int redlock_acquire(redlock_lock *l, int64_t ttl_ms)
{
    return run_blocking(l, ttl_ms, redlock_acquire_async);
}

int redlock_acquire_for(redlock_lock *l, int64_t wait_ms, int64_t ttl_ms)
{
    return run_blocking_for(l, wait_ms, ttl_ms, NULL, redlock_acquire_for_async);
}

int redlock_try_acquire(redlock_lock *l, int64_t ttl_ms)
{
    return run_blocking(l, ttl_ms, redlock_try_acquire_async);
}

int redlock_extend(redlock_lock *l, int64_t ttl_ms)
{
    return run_blocking(l, ttl_ms, redlock_extend_async);
}

int redlock_release(redlock_lock *l)
{
    return run_blocking(l, 0, start_release);
}

static void wakeup_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    *(int *)arg = 1;
}

/* A client without a loop thread runs its loop only inside its calls: a
 * call ends once what the wake-up has on its way is done (the listening
 * for the waiters' notices that its first hold asked for, a late pick
 * asked for during a release), else a waiter would not be woken by a
 * release of this client's and would wait for its poll.  A node timeout
 * at most (for the listening once: a hung master is not waited for at
 * every call); nothing once the client listens and while nobody waits. */
static void settle(redlock_client *c)
{
    struct event *timer, *grace;
    struct timeval tv;
    int expired = 0, past = 0;

    if (c->loop.closing || !redlock__wake_settling(c, 1) ||
        !(timer = evtimer_new(c->loop.base, wakeup_cb, &expired)))
        return;
    /* first every master that is up, for a few round trips (one a little
     * behind the quorum is not skipped), then those that answer */
    if ((grace = evtimer_new(c->loop.base, wakeup_cb, &past)) != NULL) {
        tv = redlock__tv(redlock__wake_grace_us(c) < c->fleet.node_timeout_us
                         ? redlock__wake_grace_us(c) : c->fleet.node_timeout_us);
        evtimer_add(grace, &tv);
    } else {
        past = 1;
    }
    tv = redlock__tv(c->fleet.node_timeout_us);
    evtimer_add(timer, &tv);
    while (!expired && !c->loop.closing && redlock__wake_settling(c, !past))
        event_base_loop(c->loop.base, EVLOOP_ONCE);
    if (grace)
        event_free(grace);
    event_free(timer);
    redlock__wake_settled(c);
}

/* Masters whose server refused the handshake (AUTH, SELECT): waiting will
 * not change their answer. */
static size_t refused(const redlock_client *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->fleet.n; i++) {
        const redlock__conn *cn = &c->fleet.masters[i].conn;
        k += cn->state != REDLOCK__CONN_UP && strncmp(cn->lasterr, "handshake failed", 16) == 0;
    }
    return k;
}

/* Name the masters that are not connected, and why: the whole text,
 * however many (formatted twice: to measure, then into its buffer). */
static void explain(redlock_client *c, size_t min)
{
    size_t up = redlock_client_connected(c), len = 0, off = 0;
    char *s = NULL;

    for (int pass = 0; pass < 2; pass++) {
        off = (size_t)snprintf(s, s ? len : 0, "%zu of %zu masters connected, %zu needed", up,
                               c->fleet.n, min);
        for (size_t i = 0; i < c->fleet.n; i++) {
            const redlock__master *m = &c->fleet.masters[i];
            const char *map = NULL;
            if (redlock__cluster_up(m, &map))
                continue;
            off += (size_t)snprintf(s ? s + off : NULL, s ? len - off : 0, "; %s: %s", m->label,
                                    m->conn.lasterr[0] ? m->conn.lasterr
                                    : map ? map : "still connecting");
        }
        if (!s && !(s = malloc(len = off + 1))) {
            snprintf(c->errstr, sizeof c->errstr, "%zu of %zu masters connected, %zu needed", up,
                     c->fleet.n, min);
            return;     /* out of memory: the count without the reasons */
        }
    }
    free(c->errtext);
    c->errtext = s;
    c->errstr[0] = '\0';
}

/* A new wait forgets the last one's text. */
static void forget(redlock_client *c)
{
    c->errstr[0] = '\0';
    free(c->errtext);
    c->errtext = NULL;
}

/* With a loop thread: it runs the loop; look every few ms. */
static void wait_threaded(redlock_client *c, size_t min, int64_t timeout_ms)
{
    int64_t end = redlock__now(&c->loop) + timeout_ms * 1000;
    int never = 0;

    for (size_t i = 0; i < c->fleet.n; i++)
        redlock__master_kick(&c->fleet.masters[i]);
    while ((redlock_client_connected(c) < min ||
            redlock__votes_pending(c->fleet.masters, c->fleet.n)) &&
           c->fleet.n - refused(c) >= min && redlock__now(&c->loop) < end)
        redlock__gate_wait(&c->loop, &never, 5);
}

static int wait_connected_ungated(redlock_client *c, size_t min, int64_t timeout_ms)
{
    struct event *timer;
    struct timeval tv;
    int expired = 0, rc;

    if (!c || !c->own_base || c->loop.depth || min > c->fleet.n || timeout_ms < 0)
        return REDLOCK_EINVAL;
    if (c->loop.th) {
        forget(c);
        wait_threaded(c, min, timeout_ms);
        if (redlock_client_connected(c) >= min)
            return 0;
        rc = c->fleet.n - refused(c) < min ? REDLOCK_ECONNECT : REDLOCK_ETIMEDOUT;
        explain(c, min);
        return rc;
    }
    forget(c);
    if (!(timer = evtimer_new(c->loop.base, wakeup_cb, &expired)))
        return REDLOCK_ENOMEM;
    tv = redlock__tv(timeout_ms * 1000);
    evtimer_add(timer, &tv);
    /* Take in what happened while nobody ran the loop (a blocking client
     * may hold connections the servers closed long ago). */
    event_base_loop(c->loop.base, EVLOOP_NONBLOCK);
    /* Masters that are down but due are connected now, not after the timer. */
    for (size_t i = 0; i < c->fleet.n; i++)
        redlock__master_kick(&c->fleet.masters[i]);
    /* (and no cluster that answers still reads its map: its votes, and
     * the others', count only once it has) */
    while ((redlock_client_connected(c) < min ||
            redlock__votes_pending(c->fleet.masters, c->fleet.n)) &&
           !expired && c->fleet.n - refused(c) >= min)
        event_base_loop(c->loop.base, EVLOOP_ONCE);
    /* One more turn writes out what the handshakes queued (undos owed to
     * the masters that came back), instead of holding it until the next call. */
    event_base_loop(c->loop.base, EVLOOP_NONBLOCK);
    event_free(timer);
    if (redlock_client_connected(c) >= min)
        return 0;
    rc = c->fleet.n - refused(c) < min ? REDLOCK_ECONNECT : REDLOCK_ETIMEDOUT;
    explain(c, min);
    return rc;
}

int redlock_client_wait_connected(redlock_client *c, size_t min, int64_t timeout_ms)
{
    REDLOCK__GATED(c, int, wait_connected_ungated(c, min, timeout_ms));
}

static const char *redlock_client_errstr_ungated(const redlock_client *c)
{
    return !c ? "client is NULL" : !c->errstr[0] && c->errtext ? c->errtext : c->errstr;
}

const char *redlock_client_errstr(const redlock_client *c)
{
    REDLOCK__GATED(c, const char *, redlock_client_errstr_ungated(c));
}
