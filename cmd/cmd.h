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
#define REDLOCK_EXIT_CONFLICT  1    /* held elsewhere, or -w ran out while it
                                     * was held (-E N) */
#define REDLOCK_EXIT_USAGE     64   /* EX_USAGE; a resource the library refuses */
#define REDLOCK_EXIT_UNAVAIL   69   /* EX_UNAVAILABLE: masters unreachable, hung
                                     * or not counted, or -w ran out while they
                                     * were (an outage: never -E's) */
#define REDLOCK_EXIT_SOFTWARE  70   /* EX_SOFTWARE: unexpected error */
#define REDLOCK_EXIT_LOST      75   /* EX_TEMPFAIL: the lock was lost */
#define REDLOCK_EXIT_CONFIG    78   /* EX_CONFIG: bad address, unreadable file,
                                     * a password, user or ACL the masters refuse */
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
    int64_t acquire_wait_ms;    /* redlock_acquire_for's: 0 one try, INT64_MAX none */
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
/* The exit code for a library error code (extend, release, a lock's
 * creation): ENOQUORUM is -E's, a timeout or unreachable masters 69. */
int redlock_cmd_exit_for(const redlock_cmd *c, int rc);
/* An acquire's outcome rc as an exit code, after its error line: 78 when
 * masters that refuse this client (password, user, ACL) leave no quorum;
 * -E's code when it is held elsewhere (the last attempt's refusals, or
 * fewer refusals and a quorum of the masters read afresh holding it for
 * another), also when -w ran out so; 69 when the masters were out
 * (unreachable, hung, not counted; also when a minority refused and no
 * quorum holds it for another), also when -w ran out so. */
int redlock_cmd_acquire_exit(const redlock_cmd *c, redlock_client *cl, const redlock_lock *l,
                             int rc);
/* 1, after the error line in the first master's words, when the masters
 * that refuse this client (a failed handshake: password, ACL user,
 * database; NOPERM in the votes of l's last operation, when l) leave
 * fewer than a quorum; else 0. */
int redlock_cmd_refused(const redlock_cmd *c, redlock_client *cl, const redlock_lock *l);
/* The same for status: NOPERM in the inspection's answers (in). */
int redlock_cmd_refused_inspection(const redlock_cmd *c, redlock_client *cl,
                                   const redlock_inspection *in);
/* The same without the line: 1 (the first master's words into first), or 0. */
int redlock_cmd_refusing(redlock_client *cl, const redlock_lock *l, char *first, size_t len);
/* The line, once, of a wait that goes on: what it waits for (why, the last
 * attempt's errstr) and until when (left_ms of -w; -1: until acquired). */
void redlock_cmd_still_waiting(const redlock_cmd *c, const char *why, int64_t waited_ms,
                               int64_t left_ms);
#define REDLOCK_CMD_NOTICE_MS 2000  /* a wait says so after this long */

/* A client on c's nodes: blocking (loop_thread when `threaded`), or on the
 * caller's base.  A blocking one waits (with `connect`) for a quorum of
 * masters up to a connect timeout and a node timeout.  NULL after an error
 * line (*exit set). */
redlock_client *redlock_cmd_client(redlock_cmd *c, struct event_base *base, int threaded,
                                   int connect, int *exit);
/* Wait up to timeout_ms for a quorum of cl's masters: 0, or the exit code
 * after an error line (78: they refuse this client; 69). */
int redlock_cmd_connect(const redlock_cmd *c, redlock_client *cl, int64_t timeout_ms);
/* --json: the object of a failure before any operation. */
void redlock_cmd_json_failed(const redlock_cmd *c, int exit);
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
