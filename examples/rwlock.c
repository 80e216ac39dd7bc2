/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/rwlock.c -- a read/write lock: readers share the resource, a
 * writer has it alone (compiled by `make examples`, run by the test
 * rw_example_readers_share_the_writer_is_alone).
 *
 *   rwlock HOST:PORT [HOST:PORT ...]
 *
 * Two readers take a report's lock together and read it; an editor (a
 * writer) is refused while they hold it, gets it once both released, and
 * then turns a reader away until it is done.
 */
#include <stdio.h>
#include "redlock.h"

static int fail(const char *what, redlock_lock *l)
{
    fprintf(stderr, "%s: %s\n", what, redlock_lock_errstr(l));
    return 1;
}

static int run(redlock_client *client)
{
    redlock_lock *reader1 = NULL, *reader2 = NULL, *editor = NULL;
    int rc = 1;

    redlock_lock_new_read(&reader1, client, "report", 6);
    redlock_lock_new_read(&reader2, client, "report", 6);
    redlock_lock_new_write(&editor, client, "report", 6);
    if (!reader1 || !reader2 || !editor)
        goto out;

    if (redlock_acquire(reader1, 10000) != 0 || redlock_acquire(reader2, 10000) != 0) {
        rc = fail("readers", redlock_lock_validity(reader1) ? reader2 : reader1);
        goto out;
    }
    printf("readers hold together: reader 1 for %lld ms, reader 2 for %lld ms\n",
           (long long)redlock_lock_validity(reader1), (long long)redlock_lock_validity(reader2));

    /* try_acquire: one attempt, so the editor leaves no waiting mark */
    if (redlock_try_acquire(editor, 10000) != REDLOCK_ENOQUORUM)
        goto out;
    printf("the editor is refused: %s\n", redlock_lock_errstr(editor));

    redlock_release(reader1);
    redlock_release(reader2);
    if (redlock_acquire(editor, 10000) != 0) {
        rc = fail("editor", editor);
        goto out;
    }
    printf("the editor holds it alone for %lld ms\n", (long long)redlock_lock_validity(editor));

    if (redlock_try_acquire(reader1, 10000) != REDLOCK_ENOQUORUM)
        goto out;
    printf("a reader is refused: %s\n", redlock_lock_errstr(reader1));
    rc = redlock_release(editor) == 0 ? 0 : 1;
out:
    redlock_lock_free(reader1);
    redlock_lock_free(reader2);
    redlock_lock_free(editor);
    return rc;
}

int main(int argc, char **argv)
{
    redlock_client *client;
    redlock_options opts;
    char err[256];
    int rc;

    if (argc < 2) {
        fprintf(stderr, "usage: rwlock HOST:PORT [HOST:PORT ...]\n");
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
