/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/semaphore.c -- a counting semaphore: up to 2 workers at once on
 * a pool of 2 licences (compiled by `make examples`, run by the test
 * semaphore_example_two_permits).
 *
 *   semaphore HOST:PORT [HOST:PORT ...]
 *
 * Two workers take a permit each; a third is refused while both hold; one
 * releases and the third gets its permit.  A handle with another permit
 * count is refused with REDLOCK_EPERMITS, and changes nothing.
 */
#include <stdio.h>
#include "redlock.h"

#define WORKERS 3

static int fail(const char *what, redlock_lock *l)
{
    fprintf(stderr, "%s: %s\n", what, redlock_lock_errstr(l));
    return 1;
}

static int run(redlock_client *client)
{
    redlock_lock *w[WORKERS] = { NULL }, *wrong = NULL;
    int rc = 1;

    for (int i = 0; i < WORKERS; i++)
        if (redlock_lock_new_semaphore(&w[i], client, "licences", 8, 2) != 0)
            goto out;
    if (redlock_lock_new_semaphore(&wrong, client, "licences", 8, 5) != 0)
        goto out;
    printf("2 permits on %zu masters: each operation needs %d of them\n",
           redlock_client_nodes(client), redlock_lock_quorum(w[0]));

    for (int i = 0; i < 2; i++) {
        if (redlock_acquire(w[i], 10000) != 0) {
            rc = fail("worker", w[i]);
            goto out;
        }
        printf("worker %d holds a permit for %lld ms\n", i + 1,
               (long long)redlock_lock_validity(w[i]));
    }
    /* try_acquire: one attempt */
    if (redlock_try_acquire(w[2], 10000) != REDLOCK_ENOQUORUM)
        goto out;
    printf("worker 3 is refused: %s\n", redlock_lock_errstr(w[2]));
    if (redlock_acquire(wrong, 10000) != REDLOCK_EPERMITS)
        goto out;
    printf("a handle with 5 permits is refused: %s\n", redlock_strerror(REDLOCK_EPERMITS));

    if (redlock_release(w[0]) != 0 || redlock_acquire(w[2], 10000) != 0) {
        rc = fail("worker 3", w[2]);
        goto out;
    }
    printf("worker 1 released; worker 3 holds a permit for %lld ms\n",
           (long long)redlock_lock_validity(w[2]));
    rc = redlock_release(w[1]) == 0 && redlock_release(w[2]) == 0 ? 0 : 1;
out:
    for (int i = 0; i < WORKERS; i++)
        redlock_lock_free(w[i]);
    redlock_lock_free(wrong);
    return rc;
}

int main(int argc, char **argv)
{
    redlock_client *client;
    redlock_options opts;
    char err[256];
    int rc;

    if (argc < 2) {
        fprintf(stderr, "usage: semaphore HOST:PORT [HOST:PORT ...]\n");
        return 2;
    }
    redlock_options_init(&opts);
    /* The masters of this example were just started: the restart guard
     * would keep them out for the longest ttl (docs/safety.md).  A
     * deployment keeps it on. */
    opts.restart_guard_ms = 0;
    if (redlock_client_new(&client, NULL, (const char *const *)argv + 1, (size_t)(argc - 1),
                           &opts, err, sizeof err) != 0) {
        fprintf(stderr, "redlock: %s\n", err);
        return 1;
    }
    rc = run(client);
    redlock_client_free(client);
    return rc;
}
