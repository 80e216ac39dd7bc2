/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* cmd.h -- the `redlock` command: what its files share.  It uses only the
 * public redlock.h, as any program built on an installed library would. */
#ifndef REDLOCK_CMD_H
#define REDLOCK_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "redlock.h"

/* Exit codes (sysexits.h where they fit; docs/command.md). */
#define REDLOCK_EXIT_OK        0
#define REDLOCK_EXIT_CONFLICT  1    /* held elsewhere, or -w ran out (-E N) */
#define REDLOCK_EXIT_USAGE     64   /* EX_USAGE; a resource the library refuses */
#define REDLOCK_EXIT_UNAVAIL   69   /* EX_UNAVAILABLE: masters unreachable */
#define REDLOCK_EXIT_SOFTWARE  70   /* EX_SOFTWARE: unexpected error */
#define REDLOCK_EXIT_LOST      75   /* EX_TEMPFAIL: the lock was lost */
#define REDLOCK_EXIT_CONFIG    78   /* EX_CONFIG: bad address, unreadable file */
#define REDLOCK_EXIT_MAXHOLD   124  /* --max-hold reached (as timeout(1)) */
#define REDLOCK_EXIT_NOEXEC    126  /* run: the command could not be executed */
#define REDLOCK_EXIT_NOTFOUND  127  /* run: the command was not found */

/* Everything the options say, for every subcommand.  Strings point into
 * argv, the environment or `owned` (freed by redlock_cmd_free). */
typedef struct redlock_cmd {
    const char *sub;            /* "run", "acquire", ... */
    const char **nodes;         /* the node list, split at commas */
    size_t nnodes;
    redlock_options opts;       /* node_timeout, prefix, TLS, guards, wake,
                                 * user, password; retries from -w/-n */
    int64_t ttl_ms;             /* --ttl: 30000 */
    int64_t wait_ms;            /* -w: -1 (wait until acquired) */
    int nonblock;               /* -n: one try */
    int conflict_exit;          /* -E: 1 */
    int fencing, read, write, json, metrics;
    int64_t permits;            /* --permits: a semaphore of P permits; 0: none */
    const char *value;          /* --value (extend, release) */
    int64_t max_hold_ms;        /* --max-hold (run): 0, none */
    int64_t kill_after_ms;      /* --kill-after (run): 5000 */
    char **args;                /* the operands: RESOURCE... [-- COMMAND...] */
    int nargs;
    int dashdash;               /* index in args of what followed "--", or -1 */
    int wipe_password;          /* the password is ours (read from a file) */
    char *owned[8];             /* strings to free */
    int nowned;
} redlock_cmd;

/* Parse the common options of subcommand `sub` from argv (argv[0] is the
 * subcommand's name), then the environment and the config file.  0, or an
 * exit code after one line on stderr. */
int redlock_cmd_parse(redlock_cmd *c, const char *sub, int argc, char **argv);
void redlock_cmd_free(redlock_cmd *c);

/* One line on stderr: "redlock: <sub>: <why>". */
void redlock_cmd_error(const redlock_cmd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The exit code for a library error code (acquire, extend ...). */
int redlock_cmd_exit_for(const redlock_cmd *c, int rc);

/* A blocking client on c's nodes (loop_thread when `threaded`), or the
 * caller's base; NULL after an error line (*exit set). */
redlock_client *redlock_cmd_client(redlock_cmd *c, struct event_base *base, int threaded,
                                   int *exit);
/* The lock the operands name (c->args up to "--"): several = multi,
 * --read/--write = the rw lock; fencing set.  NULL after an error line. */
redlock_lock *redlock_cmd_lock(redlock_cmd *c, redlock_client *cl, int *exit);

/* The subcommands: argv[0] is the subcommand's name; each returns the
 * process's exit code. */
int redlock_cmd_run(redlock_cmd *c, int argc, char **argv);
int redlock_cmd_acquire(redlock_cmd *c, int argc, char **argv);
int redlock_cmd_extend(redlock_cmd *c, int argc, char **argv);
int redlock_cmd_release(redlock_cmd *c, int argc, char **argv);
int redlock_cmd_status(redlock_cmd *c, int argc, char **argv);

/* --help: every option, one line each. */
void redlock_cmd_usage(FILE *out);

#endif /* REDLOCK_CMD_H */
