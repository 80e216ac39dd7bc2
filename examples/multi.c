/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/multi.c -- a transfer between two accounts under one
 * multi-resource lock (compiled by `make examples`, run by the test
 * multi_example_transfers).
 *
 *   multi HOST:PORT [HOST:PORT ...]
 *
 * A transfer must hold both accounts: locking them one at a time, a
 * transfer alice -> bob and one bob -> alice could each take its first
 * account and wait for ever for the other.  A multi lock takes both or
 * neither, on every master in one step, and {alice, bob} is the same lock
 * as {bob, alice}: the second teller is refused (told which account is
 * held) until the first released, then it goes ahead.
 */
#include <stdio.h>
#include <string.h>
#include "redlock.h"

struct account {
    const char *name;
    long balance;
};

/* The accounts' key names: the resources of the lock. */
static const char *const names[2] = { "account:alice", "account:bob" };

/* Move `amount` from one account to the other, under lock l. */
static void transfer(redlock_lock *l, struct account *from, struct account *to, long amount)
{
    if (redlock_lock_validity(l) > 0) {     /* still ours: write */
        from->balance -= amount;
        to->balance += amount;
    }
}

int main(int argc, char **argv)
{
    redlock_client *client;
    redlock_options opts;
    redlock_lock *t1, *t2;
    struct account alice = { "alice", 100 }, bob = { "bob", 100 };
    const void *ab[2] = { names[0], names[1] }, *ba[2] = { names[1], names[0] };
    size_t lens[2] = { strlen(names[0]), strlen(names[1]) }, rlens[2] = { lens[1], lens[0] };
    char err[256];
    int rc;

    if (argc < 2) {
        fprintf(stderr, "usage: multi HOST:PORT [HOST:PORT ...]\n");
        return 2;
    }
    redlock_options_init(&opts);
    opts.restart_guard_ms = 0;  /* fresh masters: see examples/fencing.c */
    if (redlock_client_new(&client, NULL, (const char *const *)argv + 1, (size_t)(argc - 1),
                           &opts, err, sizeof err) != 0) {
        fprintf(stderr, "redlock: %s\n", err);
        return 1;
    }
    /* teller 1 moves money alice -> bob, teller 2 bob -> alice */
    if (redlock_lock_new_multi(&t1, client, ab, lens, 2) != 0 ||
        redlock_lock_new_multi(&t2, client, ba, rlens, 2) != 0) {
        fprintf(stderr, "redlock_lock_new_multi: %s\n", redlock_client_errstr(client));
        return 1;
    }

    if ((rc = redlock_acquire(t1, 10000)) != 0) {
        fprintf(stderr, "teller 1: %s\n", redlock_lock_errstr(t1));
        return 1;
    }
    printf("teller 1 holds {alice, bob}\n");
    rc = redlock_try_acquire(t2, 10000);
    printf("teller 2 asks for {bob, alice}: %s (%s)\n", redlock_strerror(rc),
           redlock_lock_errstr(t2));
    if (rc == 0)
        return 1;       /* both would hold the accounts */
    transfer(t1, &alice, &bob, 50);
    redlock_release(t1);
    printf("teller 1 moved 50 alice -> bob and released\n");

    if ((rc = redlock_acquire(t2, 10000)) != 0) {
        fprintf(stderr, "teller 2: %s\n", redlock_lock_errstr(t2));
        return 1;
    }
    transfer(t2, &bob, &alice, 30);
    redlock_release(t2);
    printf("teller 2 moved 30 bob -> alice and released\n");
    printf("%s %ld, %s %ld\n", alice.name, alice.balance, bob.name, bob.balance);

    redlock_lock_free(t1);
    redlock_lock_free(t2);
    redlock_client_free(client);
    return alice.balance == 80 && bob.balance == 120 ? 0 : 1;
}
