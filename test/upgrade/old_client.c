/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* old_client.c -- a mutex client of the previous release, built against
 * its own header and library (the Makefile builds 0.1.0 from the git
 * history in tmp/): t_upgrade.c runs it next to today's clients on the
 * same masters.
 *
 *   old-client hold RESOURCE ADDR...   try to take the mutex: "held" or
 *                                      "refused"; when held, wait for a
 *                                      line on stdin, release: "released"
 *   old-client try RESOURCE ADDR...    try, say "held" or "refused",
 *                                      release when held
 * Exit status 0 when every step answered as the words say.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "redlock.h"

int main(int argc, char **argv)
{
    redlock_client *c = NULL;
    redlock_lock *l = NULL;
    char err[256], line[16];
    size_t n = (size_t)(argc - 3);
    int rc;

    alarm(60);          /* never outlive a test that went away */
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc < 4 || (strcmp(argv[1], "hold") && strcmp(argv[1], "try"))) {
        fprintf(stderr, "usage: old-client hold|try RESOURCE ADDR...\n");
        return 2;
    }
    if (redlock_client_new(&c, NULL, (const char *const *)argv + 3, n, NULL, err, sizeof err)) {
        fprintf(stderr, "old-client: %s\n", err);
        return 1;
    }
    if (redlock_client_wait_connected(c, n, 5000) ||
        redlock_lock_new(&l, c, argv[2], strlen(argv[2]))) {
        fprintf(stderr, "old-client: not connected\n");
        return 1;
    }
    rc = redlock_try_acquire(l, 20000);
    printf("%s\n", rc == 0 ? "held" : "refused");
    if (rc == 0 && !strcmp(argv[1], "hold") && !fgets(line, sizeof line, stdin))
        rc = -1;
    if (rc == 0) {
        if (redlock_release(l) != 0) {
            fprintf(stderr, "old-client: release: %s\n", redlock_lock_errstr(l));
            return 1;
        }
        if (!strcmp(argv[1], "hold"))
            printf("released\n");
    }
    redlock_lock_free(l);
    redlock_client_free(c);
    return 0;
}
