/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/reentrant.c -- a re-entrant lock held by nested calls
 * (compiled by `make examples`, run by the test
 * reentrant_example_nests_and_releases).
 *
 *   reentrant HOST:PORT [HOST:PORT ...]
 *
 * transfer() locks the accounts and calls audit(), which locks them too:
 * with a mutex the inner acquire would wait for the outer one forever (or
 * fail); a re-entrant lock counts the holds instead, and the lock is free
 * again only after the outermost release.  Another owner (here a second
 * handle with an owner id of its own) is refused meanwhile.
 */
#include <stdio.h>
#include "redlock.h"

static redlock_lock *mine, *theirs;

/* Take the lock, go one level deeper, give the lock back. */
static int nested(int depth, int max)
{
    int ok;

    if (redlock_acquire(mine, 10000) != 0) {
        fprintf(stderr, "depth %d: %s\n", depth, redlock_lock_errstr(mine));
        return 0;
    }
    printf("depth %d: holds %lld\n", depth, (long long)redlock_lock_holds(mine));
    if (depth == max)
        printf("another owner: %s\n",
               redlock_try_acquire(theirs, 10000) == 0 ? "got it (wrong)" : "refused");
    ok = depth == max || nested(depth + 1, max);
    if (redlock_release(mine) != 0)
        ok = 0;
    return ok && (depth == 1 || redlock_lock_validity(mine) > 0);  /* outer still held */
}

int main(int argc, char **argv)
{
    redlock_client *client;
    redlock_options opts;
    char err[256];
    int ok;

    if (argc < 2) {
        fprintf(stderr, "usage: reentrant HOST:PORT [HOST:PORT ...]\n");
        return 2;
    }
    redlock_options_init(&opts);
    /* masters just started (the test's): see examples/fencing.c */
    opts.restart_guard_ms = 0;
    if (redlock_client_new(&client, NULL, (const char *const *)argv + 1, (size_t)(argc - 1),
                           &opts, err, sizeof err) != 0) {
        fprintf(stderr, "redlock: %s\n", err);
        return 1;
    }
    /* one owner id per task: "transfer-42" (NULL would make one up) */
    if (redlock_lock_new_reentrant(&mine, client, "accounts", 8, "transfer-42", 11) != 0 ||
        redlock_lock_new_reentrant(&theirs, client, "accounts", 8, NULL, 0) != 0)
        return 1;
    ok = nested(1, 3);
    if (ok && redlock_try_acquire(theirs, 10000) == 0) {
        printf("after the last release: another owner gets it\n");
        redlock_release(theirs);
    } else {
        ok = 0;
    }
    redlock_lock_free(mine);
    redlock_lock_free(theirs);
    redlock_client_free(client);
    return ok ? 0 : 1;
}
