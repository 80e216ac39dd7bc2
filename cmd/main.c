/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* main.c -- `redlock SUBCOMMAND [options] ...`: the dispatch, and what the
 * subcommands share once their options are read (the client, the lock,
 * the exit code of a library error). */
#include "cmd/cmd.h"

#include <stdio.h>
#include <string.h>

int redlock_cmd_exit_for(const redlock_cmd *c, int rc)
{
    switch (rc) {
    case REDLOCK_OK:
        return REDLOCK_EXIT_OK;
    case REDLOCK_ENOQUORUM:
    case REDLOCK_ETIMEDOUT:
        return c->conflict_exit;
    case REDLOCK_EINVAL:
        return REDLOCK_EXIT_USAGE;
    case REDLOCK_ECONNECT:
    case REDLOCK_ESERVER:
    case REDLOCK_EUNCOUNTED:
    case REDLOCK_EFULL:
        return REDLOCK_EXIT_UNAVAIL;
    case REDLOCK_ENOTOWNER:
        return REDLOCK_EXIT_LOST;
    case REDLOCK_EPERMITS:          /* handles of one semaphore disagree */
        return REDLOCK_EXIT_CONFIG;
    default:
        return REDLOCK_EXIT_SOFTWARE;
    }
}

redlock_client *redlock_cmd_client(redlock_cmd *c, struct event_base *base, int threaded,
                                   int *exit)
{
    redlock_client *cl = NULL;
    char err[1024];
    redlock_options o = c->opts;
    o.loop_thread = !base && threaded;
    int rc = redlock_client_new(&cl, base, c->nodes, c->nnodes, &o, err, sizeof err);
    if (rc != 0) {
        redlock_cmd_error(c, "%s", err);
        *exit = rc == REDLOCK_EINVAL ? REDLOCK_EXIT_CONFIG : REDLOCK_EXIT_SOFTWARE;
        return NULL;
    }
    if (base)
        return cl;
    /* a quorum of masters that cannot be reached fails now, not never */
    rc = redlock_client_wait_connected(cl, redlock_client_quorum(cl),
                                       o.connect_timeout_ms + o.node_timeout_ms);
    if (rc != 0) {
        redlock_cmd_error(c, "%s", redlock_client_errstr(cl));
        *exit = REDLOCK_EXIT_UNAVAIL;
        redlock_client_free(cl);
        return NULL;
    }
    return cl;
}

static int new_lock(redlock_cmd *c, redlock_client *cl, int n, redlock_lock **l)
{
    if (n > 1) {
        const void *res[1024];
        size_t lens[1024];
        for (int i = 0; i < n; i++) {
            res[i] = c->args[i];
            lens[i] = strlen(c->args[i]);
        }
        return redlock_lock_new_multi(l, cl, res, lens, (size_t)n);
    }
    if (c->permits)
        return redlock_lock_new_semaphore(l, cl, c->args[0], strlen(c->args[0]),
                                          (unsigned)c->permits);
    if (c->read)
        return redlock_lock_new_read(l, cl, c->args[0], strlen(c->args[0]));
    if (c->write)
        return redlock_lock_new_write(l, cl, c->args[0], strlen(c->args[0]));
    return redlock_lock_new(l, cl, c->args[0], strlen(c->args[0]));
}

redlock_lock *redlock_cmd_lock(redlock_cmd *c, redlock_client *cl, int *exit)
{
    int n = c->dashdash >= 0 ? c->dashdash : c->nargs;
    redlock_lock *l = NULL;
    if (n == 0) {
        redlock_cmd_error(c, "no resource given");
        *exit = REDLOCK_EXIT_USAGE;
        return NULL;
    }
    if (n > 1 && (c->read || c->write || c->fencing || c->permits || n > 1024)) {
        redlock_cmd_error(c, n > 1024 ? "at most 1024 resources"
                                      : "several resources take no --read, --write, --permits "
                                        "or --fencing");
        *exit = REDLOCK_EXIT_USAGE;
        return NULL;
    }
    int rc = new_lock(c, cl, n, &l);
    if (rc == 0 && c->fencing)
        rc = redlock_lock_set_fencing(l, 1);
    if (rc != 0) {
        redlock_cmd_error(c, "%s", l ? redlock_lock_errstr(l) : redlock_client_errstr(cl));
        *exit = redlock_cmd_exit_for(c, rc);
        redlock_lock_free(l);
        return NULL;
    }
    return l;
}

static const struct sub {
    const char *name;
    int (*fn)(redlock_cmd *, int, char **);
} subs[] = {
    {"run", redlock_cmd_run},
    {"acquire", redlock_cmd_acquire},
    {"extend", redlock_cmd_extend},
    {"release", redlock_cmd_release},
    {"status", redlock_cmd_status},
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        redlock_cmd_usage(stderr);
        return REDLOCK_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        redlock_cmd_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("redlock %s\n", redlock_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        if (strcmp(argv[1], subs[i].name) != 0)
            continue;
        redlock_cmd c;
        int rc = redlock_cmd_parse(&c, subs[i].name, argc - 1, argv + 1);
        if (rc == 0)
            rc = subs[i].fn(&c, argc - 1, argv + 1);
        redlock_cmd_free(&c);
        return rc < 0 ? 0 : rc;
    }
    fprintf(stderr, "redlock: unknown subcommand '%s' (redlock --help)\n", argv[1]);
    return REDLOCK_EXIT_USAGE;
}
