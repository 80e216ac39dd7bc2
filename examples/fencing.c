/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/fencing.c -- why a lock needs fencing tokens, and how the
 * resource it protects checks them (compiled by `make examples`, run by
 * the test fencing_example_rejects_the_paused_holder).
 *
 *   fencing HOST:PORT [HOST:PORT ...]
 *
 * Two workers share a "storage" that accepts a write only with a token at
 * least as large as every token it has seen.  Worker A takes the lock, then
 * stalls (a GC pause, a swapped-out process) past its validity; worker B
 * takes the lock meanwhile and writes.  When A wakes up it still believes
 * it may write, but its token is smaller than B's, so the storage refuses
 * it.  Without the check, A's late write would overwrite B's.
 *
 * A real storage keeps the largest token it has seen per resource, in the
 * same transaction as the write (e.g. a column compared and set with the
 * row, or a conditional put), and refuses a smaller one.
 */
#define _POSIX_C_SOURCE 200809L     /* nanosleep, with -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "redlock.h"

/* The protected resource: a value, and the largest token seen. */
struct storage {
    int64_t max_token;
    char value[64];
};

/* 0: written; -1: refused, a newer holder has written since. */
static int storage_write(struct storage *s, int64_t token, const char *value)
{
    if (token < s->max_token)
        return -1;
    s->max_token = token;
    snprintf(s->value, sizeof s->value, "%s", value);
    return 0;
}

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    redlock_client *client;
    redlock_options opts;
    redlock_lock *a, *b;
    struct storage storage = { 0, "" };
    char err[256];
    int64_t ta, tb;

    if (argc < 2) {
        fprintf(stderr, "usage: fencing HOST:PORT [HOST:PORT ...]\n");
        return 2;
    }
    redlock_options_init(&opts);
    /* The masters of this example were just started: a master up for less
     * than the longest ttl looks restarted, and the restart guard would
     * keep it out that long (docs/safety.md).  A deployment keeps it on. */
    opts.restart_guard_ms = 0;
    if (redlock_client_new(&client, NULL, (const char *const *)argv + 1, (size_t)(argc - 1),
                           &opts, err, sizeof err) != 0) {
        fprintf(stderr, "redlock: %s\n", err);
        return 1;
    }
    redlock_lock_new(&a, client, "fenced-account", 14);
    redlock_lock_new(&b, client, "fenced-account", 14);
    redlock_lock_set_fencing(a, 1);
    redlock_lock_set_fencing(b, 1);

    if (redlock_acquire(a, 200) != 0)
        return 1;
    ta = redlock_lock_token(a);
    printf("A holds the lock, token %lld; A stalls for 300 ms\n", (long long)ta);
    pause_ms(300);                      /* past A's validity */

    if (redlock_acquire(b, 10000) != 0)
        return 1;
    tb = redlock_lock_token(b);
    printf("B holds the lock, token %lld; B writes: %s\n", (long long)tb,
           storage_write(&storage, tb, "written by B") == 0 ? "accepted" : "refused");

    /* A wakes up, unaware (it should have checked redlock_lock_validity) */
    printf("A writes with token %lld: %s\n", (long long)ta,
           storage_write(&storage, ta, "written by A") == 0 ? "accepted" : "refused");
    printf("storage holds \"%s\"\n", storage.value);

    redlock_release(b);
    redlock_lock_free(a);
    redlock_lock_free(b);
    redlock_client_free(client);
    return tb > ta && storage.max_token == tb ? 0 : 1;
}
