/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_upgrade.c -- a rolling upgrade: clients of the previous release
 * (test/upgrade/old-client, built by the Makefile from 0.1.0's sources)
 * and today's on the same masters never both hold a resource, whatever
 * kind today's lock is.  0.1.0 has the mutex only; every kind of today
 * keeps the resource's key K where that mutex has it.
 */
#include "itest.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define OLD_CLIENT "test/upgrade/old-client"

struct old {
    pid_t pid;
    FILE *out;          /* its stdout */
    int in;             /* its stdin */
};

/* Start the old client: `mode` on res against f's 3 masters. */
static int old_start(struct it_fix *f, struct old *o, const char *mode, const char *res)
{
    int to[2], from[2];

    if (access(OLD_CLIENT, X_OK) != 0) {
        CHECK_MSG(0, "%s is not built (make %s: it needs the git history)", OLD_CLIENT,
                  OLD_CLIENT);
        return -1;
    }
    CHECK(pipe(to) == 0 && pipe(from) == 0);
    o->pid = fork();
    CHECK(o->pid >= 0);
    if (o->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl(OLD_CLIENT, OLD_CLIENT, mode, res, rlt_servers_addr(f->s, 0),
              rlt_servers_addr(f->s, 1), rlt_servers_addr(f->s, 2), (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    o->in = to[1];
    o->out = fdopen(from[0], "r");
    return 0;
}

/* The old client's next line, without its newline ("" at its end). */
static const char *old_says(struct old *o, char *buf, size_t size)
{
    if (!fgets(buf, (int)size, o->out))
        buf[0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

static void old_end(struct old *o)
{
    int status = -1;
    close(o->in);
    fclose(o->out);
    CHECK(waitpid(o->pid, &status, 0) == o->pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "old-client exited with %d",
              status);
}

enum { MUTEX, FENCED, REENTRANT, READ, WRITE, FENCED_WRITE, MULTI, NKINDS };
static const char *const kind_name[NKINDS] = { "mutex", "fenced mutex", "re-entrant", "read",
                                               "write", "fenced write", "multi" };

static redlock_lock *new_lock(redlock_client *c, int kind, const char *res)
{
    const void *multi[2] = { res, "other" };
    size_t lens[2] = { strlen(res), 5 };
    redlock_lock *l = NULL;
    int rc = kind == REENTRANT ? redlock_lock_new_reentrant(&l, c, res, strlen(res), NULL, 0)
             : kind == READ    ? redlock_lock_new_read(&l, c, res, strlen(res))
             : kind == WRITE || kind == FENCED_WRITE ? redlock_lock_new_write(&l, c, res, strlen(res))
             : kind == MULTI   ? redlock_lock_new_multi(&l, c, multi, lens, 2)
                               : redlock_lock_new(&l, c, res, strlen(res));
    CHECK_EQ(rc, 0);
    if (kind == FENCED || kind == FENCED_WRITE)
        CHECK_EQ(redlock_lock_set_fencing(l, 1), 0);
    return l;
}

/* For every kind of today's lock: the old client holds, today's is
 * refused; today's holds, the old client is refused. */
TEST(upgrade_old_and_new_clients_never_both_hold)
{
    struct it_fix f = {0};
    char line[64];
    it_fix_start(&f, 3, NULL, 0);

    for (int k = 0; k < NKINDS; k++) {
        struct old o;
        redlock_lock *l = new_lock(f.c, k, "up");
        check_note("%s", kind_name[k]);
        if (old_start(&f, &o, "hold", "up") != 0)
            break;
        CHECK_STREQ(old_says(&o, line, sizeof line), "held");
        CHECK_RC(l, redlock_try_acquire(l, 20000), REDLOCK_ENOQUORUM);
        CHECK_EQ(write(o.in, "\n", 1), 1);
        CHECK_STREQ(old_says(&o, line, sizeof line), "released");
        old_end(&o);

        CHECK_RC(l, redlock_try_acquire(l, 20000), 0);
        CHECK(old_start(&f, &o, "try", "up") == 0);
        CHECK_STREQ(old_says(&o, line, sizeof line), "refused");
        old_end(&o);
        CHECK_RC(l, redlock_release(l), 0);
        redlock_lock_free(l);
    }
    it_fix_stop(&f);
}
