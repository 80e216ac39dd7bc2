/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/async.c -- the asynchronous API on the program's own libevent
 * loop: acquire, then release from the callback, then stop the loop.
 * docs/getting-started.md shows it.  Usage: async HOST:PORT [HOST:PORT ...]
 * Build against an installed library: cc async.c $(pkg-config --cflags --libs redlock) */
#include <stdio.h>
#include <event2/event.h>
#include "redlock.h"

struct job {
    struct event_base *base;
    int status;             /* the acquire's, then the release's */
};

static void on_released(redlock_lock *lock, int status, void *privdata)
{
    struct job *job = privdata;
    (void)lock;
    if (job->status == 0)
        job->status = status;
    event_base_loopbreak(job->base);
}

static void on_locked(redlock_lock *lock, int status, void *privdata)
{
    struct job *job = privdata;

    job->status = status;
    if (status != 0) {
        fprintf(stderr, "not acquired: %s\n", redlock_lock_errstr(lock));
        event_base_loopbreak(job->base);
        return;
    }
    printf("held for %lld ms\n", (long long)redlock_lock_validity(lock));
    /* ... work, on this loop, for less than the validity ... */
    redlock_release_async(lock, on_released, job);     /* safe from a callback */
}

int main(int argc, char **argv)
{
    struct job job = { event_base_new(), -1 };
    redlock_client *client;
    redlock_lock *lock;
    char err[512];

    if (!job.base ||
        redlock_client_new(&client, job.base, (const char *const *)argv + 1, (size_t)(argc - 1),
                           NULL, err, sizeof err) != 0) {
        fprintf(stderr, "redlock: %s\n", job.base ? err : "no event base");
        return 1;
    }
    redlock_lock_new(&lock, client, "invoice-run", 11);
    /* (the first attempt may find the masters still connecting: the
     * acquire retries) */
    if (redlock_acquire_async(lock, 30000, on_locked, &job) == 0)
        event_base_dispatch(job.base);
    redlock_lock_free(lock);
    redlock_client_free(client);
    event_base_free(job.base);
    return job.status == 0 ? 0 : 1;
}
