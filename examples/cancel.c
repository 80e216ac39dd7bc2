/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/cancel.c -- a waiter that stops waiting: one client holds
 * "report-run"; a second waits for it with no deadline of its own
 * (redlock_acquire_for_async, wait_ms INT64_MAX) and is cancelled from a
 * timer 300 ms later (redlock_acquire_cancel: its callback runs inside the
 * call, with REDLOCK_ECANCELED).  Then a third waits with a deadline of
 * 200 ms (REDLOCK_ETIMEDOUT).  Neither leaves anything on the masters.
 * Usage: cancel HOST:PORT [HOST:PORT ...]
 * Build against an installed library: cc cancel.c $(pkg-config --cflags --libs redlock) */
#include <stdint.h>
#include <stdio.h>
#include <event2/event.h>
#include "redlock.h"

struct run {
    struct event_base *base;
    redlock_lock *waiter;
    int status;             /* the last callback's */
    int done;
};

static void on_outcome(redlock_lock *lock, int status, void *privdata)
{
    struct run *run = privdata;

    run->status = status;
    run->done = 1;
    printf("%s: %s\n", redlock_strerror(status), redlock_lock_errstr(lock));
    event_base_loopbreak(run->base);
}

static void on_timer(evutil_socket_t fd, short what, void *privdata)
{
    struct run *run = privdata;
    (void)fd;
    (void)what;
    /* the waiter's callback runs in here, before this returns */
    if (redlock_acquire_cancel(run->waiter) != 0)
        fprintf(stderr, "nothing to cancel: %s\n", redlock_lock_errstr(run->waiter));
}

int main(int argc, char **argv)
{
    struct run run = { event_base_new(), NULL, -1, 0 };
    const char *const *nodes = (const char *const *)argv + 1;
    size_t n = (size_t)(argc - 1);
    redlock_client *holder_client, *client;
    redlock_lock *holder, *late;
    struct timeval t = { 0, 300000 };
    struct event *timer;
    redlock_options opts;
    char err[512];
    int ok;

    if (argc < 2) {
        fprintf(stderr, "usage: cancel HOST:PORT [HOST:PORT ...]\n");
        return 2;
    }
    redlock_options_init(&opts);
    /* masters started a moment ago (as the tests' are): count them at once
     * (in production keep the restart guard: docs/safety.md) */
    opts.restart_guard_ms = 0;
    if (!run.base || redlock_client_new(&holder_client, NULL, nodes, n, &opts, err, sizeof err) ||
        redlock_client_new(&client, run.base, nodes, n, &opts, err, sizeof err)) {
        fprintf(stderr, "redlock: %s\n", run.base ? err : "no event base");
        return 1;
    }
    redlock_client_wait_connected(holder_client, n, 1000);
    redlock_lock_new(&holder, holder_client, "report-run", 10);
    if (redlock_acquire(holder, 30000) != 0) {
        fprintf(stderr, "holder: %s\n", redlock_lock_errstr(holder));
        return 1;
    }
    printf("holder holds report-run\n");

    redlock_lock_new(&run.waiter, client, "report-run", 10);
    redlock_acquire_for_async(run.waiter, INT64_MAX, 30000, on_outcome, &run);
    timer = evtimer_new(run.base, on_timer, &run);
    evtimer_add(timer, &t);
    event_base_dispatch(run.base);
    ok = run.status == REDLOCK_ECANCELED;

    redlock_lock_new(&late, client, "report-run", 10);
    run.done = 0;
    redlock_acquire_for_async(late, 200, 30000, on_outcome, &run);
    while (!run.done)
        event_base_dispatch(run.base);
    ok = ok && run.status == REDLOCK_ETIMEDOUT;

    redlock_release(holder);
    event_free(timer);
    redlock_lock_free(late);
    redlock_lock_free(run.waiter);
    redlock_lock_free(holder);
    redlock_client_free(client);
    redlock_client_free(holder_client);
    event_base_free(run.base);
    return ok ? 0 : 1;
}
