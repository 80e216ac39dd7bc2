/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/basic.c -- the README's API example, compiled by `make examples`
 * so that it stays true; docs/getting-started.md runs it first.
 * Usage: basic HOST:PORT [HOST:PORT ...] */
#include <stdio.h>
#include "redlock.h"

/* What a newcomer can do about a failed acquire. */
static void advise(int rc)
{
    if (rc == REDLOCK_EUNCOUNTED)
        fprintf(stderr, "The masters answered, but the restart guard does not count a master "
                        "until one ttl after its start: it may have lost its locks in a "
                        "restart. Start them with --appendonly yes --appendfsync always (they "
                        "lose none, so they count at once), or wait and try again "
                        "(docs/getting-started.md).\n");
    else if (rc == REDLOCK_ECONNECT || rc == REDLOCK_ETIMEDOUT)
        fprintf(stderr, "Are the masters running, at these addresses? "
                        "(docs/getting-started.md)\n");
}

int main(int argc, char **argv)
{
    redlock_client *client;
    redlock_lock *lock;
    redlock_options opts;
    char err[512];
    size_t n = (size_t)(argc - 1);
    int rc;

    redlock_options_init(&opts);
    opts.key_prefix = "lock:";
    rc = redlock_client_new(&client, NULL /* own loop: blocking API */,
                            (const char *const *)argv + 1, n, &opts, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "redlock: %s\n", err);
        return 1;
    }
    /* masters started a moment ago may not listen yet: wait for a quorum */
    if ((rc = redlock_client_wait_connected(client, n / 2 + 1, 5000)) != 0) {
        fprintf(stderr, "not connected: %s\n", redlock_client_errstr(client));
        advise(rc);
        redlock_client_free(client);
        return 1;
    }
    redlock_lock_new(&lock, client, "invoice-run", 11);
    if ((rc = redlock_acquire(lock, 30000)) == 0) {
        printf("held for %lld ms\n", (long long)redlock_lock_validity(lock));
        /* ... work, calling redlock_extend(lock, 30000) before validity runs out ... */
        redlock_release(lock);
    } else {
        fprintf(stderr, "not acquired: %s\n", redlock_lock_errstr(lock));
        advise(rc);
    }
    redlock_lock_free(lock);
    redlock_client_free(client);
    return rc == 0 ? 0 : 1;
}
