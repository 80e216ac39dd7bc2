/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/basic.c -- the README's API example, compiled by `make examples`
 * so that it stays true.  Usage: basic HOST:PORT [HOST:PORT ...] */
#include <stdio.h>
#include "redlock.h"

int main(int argc, char **argv)
{
    redlock_client *client;
    redlock_lock *lock;
    redlock_options opts;
    char err[256];
    int rc;

    redlock_options_init(&opts);
    opts.key_prefix = "lock:";
    rc = redlock_client_new(&client, NULL /* own loop: blocking API */,
                            (const char *const *)argv + 1, (size_t)(argc - 1),
                            &opts, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "redlock: %s\n", err);
        return 1;
    }
    redlock_lock_new(&lock, client, "invoice-run", 11);
    if ((rc = redlock_acquire(lock, 30000)) == 0) {
        printf("held for %lld ms\n", (long long)redlock_lock_validity(lock));
        /* ... work, calling redlock_extend(lock, 30000) before validity runs out ... */
        redlock_release(lock);
    } else {
        fprintf(stderr, "not acquired: %s\n", redlock_lock_errstr(lock));
    }
    redlock_lock_free(lock);
    redlock_client_free(client);
    return rc == 0 ? 0 : 1;
}
