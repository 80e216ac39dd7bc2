/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* ops.c -- `redlock acquire`, `extend` and `release`: one operation each,
 * then exit.  acquire prints the lock's value (and its fencing token), and
 * the lock lives on the masters until its ttl ends or a release; extend
 * and release take that value (--value), so another process, or another
 * machine, may end what this one began (redlock_lock_set_value).  Every
 * kind the command makes can be: the mutex, the multi-resource lock
 * (several RESOURCEs), --read and --write, the semaphore (--permits). */
#include "cmd/cmd.h"
#include "cmd/json.h"

#include <string.h>
#include <time.h>

enum op { OP_ACQUIRE, OP_EXTEND, OP_RELEASE };

static int nresources(const redlock_cmd *c)
{
    return c->dashdash >= 0 ? c->dashdash : c->nargs;
}

static const char *kind_name(const redlock_cmd *c)
{
    return nresources(c) > 1 ? "multi" : c->read ? "read" : c->write ? "write"
         : c->permits ? "semaphore" : "mutex";
}

/* The head every --json object of these subcommands starts with. */
static void json_head(redlock_json *j, const redlock_cmd *c, int exit)
{
    redlock_json_start(j, stdout);
    redlock_json_bool(j, "ok", exit == 0);
    redlock_json_int(j, "exit", exit);
    redlock_json_cstr(j, "command", c->sub);
    redlock_json_cstr(j, "kind", kind_name(c));
    redlock_json_array(j, "resources");
    for (int i = 0; i < nresources(c); i++)
        redlock_json_cstr(j, NULL, c->args[i]);
    redlock_json_end(j);
}

/* What every master did in the lock's last operation. */
static void json_nodes(redlock_json *j, redlock_client *cl, const redlock_lock *l)
{
    redlock_json_array(j, "nodes");
    for (size_t i = 0; i < redlock_client_nodes(cl); i++) {
        redlock_node_stats st;
        redlock_node_result r;
        if (redlock_client_node_stats(cl, i, &st) != 0 || redlock_lock_node_result(l, i, &r) != 0)
            continue;
        redlock_json_object(j, NULL);
        redlock_json_int(j, "node", (int64_t)i);
        redlock_json_cstr(j, "address", st.address);
        redlock_json_cstr(j, "result", redlock_vote_name(r.vote));
        redlock_json_int(j, "rtt_us", r.rtt_us);
        redlock_json_cstr(j, "detail", r.detail);
        redlock_json_end(j);
    }
    redlock_json_end(j);
}

/* An error before any operation: the line on stderr is written; with
 * --json the object too. */
static int failed(const redlock_cmd *c, int exit)
{
    if (c->json) {
        redlock_json j;
        json_head(&j, c, exit);
        redlock_json_cstr(&j, "error", redlock_cmd_last_error());
        redlock_json_finish(&j);
    }
    return exit;
}

static int check_usage(redlock_cmd *c, enum op op)
{
    if (op == OP_ACQUIRE && c->value)
        redlock_cmd_error(c, "--value is for extend and release (acquire makes a new value)");
    else if (op != OP_ACQUIRE && !c->value)
        redlock_cmd_error(c, "--value V is needed: the value `redlock acquire` printed");
    else if (op != OP_ACQUIRE && !c->value[0])
        redlock_cmd_error(c, "--value is empty");
    else if (op != OP_ACQUIRE && c->fencing)
        redlock_cmd_error(c, "--fencing is for acquire (extend and release keep the token)");
    else if (c->dashdash >= 0)
        redlock_cmd_error(c, "no command to run here (that is `redlock run`)");
    else if (c->metrics)
        redlock_cmd_error(c, "--metrics is for status");
    else
        return 0;
    return REDLOCK_EXIT_USAGE;
}

/* A command lives for one operation: wait (a connect timeout at most) for
 * every master, so that a master still connecting gets the operation too
 * (a release it missed would keep the key there until its ttl). */
static void connect_all(const redlock_cmd *c, redlock_client *cl)
{
    (void)redlock_client_wait_connected(cl, redlock_client_nodes(cl),
                                        c->opts.connect_timeout_ms);
}

/* ---- acquire: the wait ------------------------------------------------------ */

/* An acquire's wait: -w's deadline (or none), and its one notice. */
struct wait {
    int64_t start, end;         /* ms (now_ms); end INT64_MAX: no -w */
    int told;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void wait_init(const redlock_cmd *c, struct wait *w)
{
    w->start = now_ms();
    w->end = c->acquire_wait_ms == INT64_MAX ? INT64_MAX : w->start + c->acquire_wait_ms;
    w->told = 0;
}

/* The next stretch to wait: until the deadline or the notice, whichever
 * comes first; an hour at most (INT64_MAX: no end, for the acquire). */
static int64_t stretch(const struct wait *w, int64_t cap)
{
    int64_t now = now_ms(), to = w->end;
    if (!w->told && w->start + REDLOCK_CMD_NOTICE_MS < to)
        to = w->start + REDLOCK_CMD_NOTICE_MS;
    if (to == INT64_MAX)
        return cap;
    return to - now < 0 ? 0 : to - now > cap ? cap : to - now;
}

/* A stretch ended before the deadline: the notice, once (1: wait on), or
 * 0 at the deadline. */
static int wait_on(const redlock_cmd *c, struct wait *w, const char *why)
{
    int64_t now = now_ms();
    if (w->end != INT64_MAX && now >= w->end)
        return 0;
    if (!w->told && now - w->start >= REDLOCK_CMD_NOTICE_MS) {
        w->told = 1;
        redlock_cmd_still_waiting(c, why, now - w->start,
                                  w->end == INT64_MAX ? -1 : w->end - now);
    }
    return 1;
}

/* A quorum of masters connected: -n waits a connect timeout and a node
 * timeout; -w until its deadline, and without -w until they come (the
 * client reconnects with its back-off meanwhile).  0, or the exit code
 * after an error line. */
static int await_masters(const redlock_cmd *c, redlock_client *cl, struct wait *w)
{
    if (c->nonblock)
        return redlock_cmd_connect(c, cl, c->opts.connect_timeout_ms + c->opts.node_timeout_ms);
    for (;;) {
        int rc = redlock_client_wait_connected(cl, redlock_client_quorum(cl),
                                               stretch(w, 3600000));
        if (rc == 0)
            return 0;
        if (rc == REDLOCK_ECONNECT || redlock_cmd_refused(c, cl, NULL))
            return redlock_cmd_connect(c, cl, 0);       /* (its line, its code) */
        if (!wait_on(c, w, redlock_client_errstr(cl)))
            break;
    }
    redlock_cmd_error(c, "masters unreachable until -w ran out: %s", redlock_client_errstr(cl));
    return REDLOCK_EXIT_UNAVAIL;
}

/* The acquire itself: one try (-n), or attempts until -w's deadline (or
 * until acquired), cut once at the notice to say what it waits for. */
static int acquire_waiting(const redlock_cmd *c, redlock_client *cl, redlock_lock *l,
                           struct wait *w)
{
    char first[1024];
    if (c->nonblock)
        return redlock_acquire_for(l, 0, c->ttl_ms);
    for (;;) {
        int rc = redlock_acquire_for(l, stretch(w, INT64_MAX), c->ttl_ms);
        /* masters that refuse this client (an ACL's NOPERM in the votes)
         * end it: the exit code's line says so */
        if (rc != REDLOCK_ETIMEDOUT || w->told ||
            redlock_cmd_refusing(cl, l, first, sizeof first) ||
            !wait_on(c, w, redlock_lock_errstr(l)))
            return rc;
    }
}

static int run_op(redlock_client *cl, redlock_lock *l, const redlock_cmd *c, enum op op,
                  struct wait *w)
{
    switch (op) {
    case OP_ACQUIRE:
        return acquire_waiting(c, cl, l, w);
    case OP_EXTEND:
        return redlock_extend(l, c->ttl_ms);
    default:
        return redlock_release(l);
    }
}

/* The exit code of the operation's outcome, after its error line.  For
 * extend and release a timeout is the masters' (69), a refusal the
 * value's (75). */
static int exit_of(const redlock_cmd *c, redlock_client *cl, redlock_lock *l, enum op op, int rc)
{
    if (op == OP_ACQUIRE)
        return redlock_cmd_acquire_exit(c, cl, l, rc);
    if (rc == 0)
        return 0;
    if (redlock_cmd_refused(c, cl, l))
        return REDLOCK_EXIT_CONFIG;
    redlock_cmd_error(c, "%s", redlock_lock_errstr(l));
    if (rc == REDLOCK_ETIMEDOUT || rc == REDLOCK_ENOQUORUM)
        return rc == REDLOCK_ETIMEDOUT ? REDLOCK_EXIT_UNAVAIL : REDLOCK_EXIT_LOST;
    return redlock_cmd_exit_for(c, rc);
}

/* The outcome on stdout; exit 0 with `acquired` 0 is -E 0's "held
 * elsewhere": no value and no token, which would hold nothing. */
static void report(const redlock_cmd *c, redlock_client *cl, redlock_lock *l, enum op op,
                   int exit, int acquired)
{
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);

    if (!c->json) {
        if (acquired && op == OP_ACQUIRE) {
            fwrite(v, 1, vlen, stdout);
            fputc('\n', stdout);
            if (c->fencing)
                printf("%lld\n", (long long)redlock_lock_token(l));
        }
        return;
    }
    redlock_json j;
    json_head(&j, c, exit);
    if (exit != 0)
        redlock_json_cstr(&j, "error", redlock_cmd_last_error());
    if (v)
        redlock_json_str(&j, "value", v, vlen);
    if (op == OP_ACQUIRE && c->fencing && acquired)
        redlock_json_int(&j, "token", redlock_lock_token(l));
    if (op != OP_RELEASE)
        redlock_json_int(&j, "ttl_ms", c->ttl_ms);
    redlock_json_int(&j, "validity_ms", redlock_lock_validity(l));
    redlock_json_int(&j, "nodes_ok", (int64_t)redlock_lock_nodes_ok(l));
    redlock_json_int(&j, "quorum", (int64_t)redlock_lock_quorum(l));
    json_nodes(&j, cl, l);
    redlock_json_finish(&j);
}

static int lock_op(redlock_cmd *c, enum op op)
{
    int exit = check_usage(c, op), rc;
    redlock_client *cl;
    redlock_lock *l;

    struct wait w;
    if (exit)
        return failed(c, exit);
    wait_init(c, &w);
    if (!(cl = redlock_cmd_client(c, NULL, 0, op != OP_ACQUIRE, &exit)))
        return failed(c, exit);
    if (op == OP_ACQUIRE && (exit = await_masters(c, cl, &w)) != 0) {
        redlock_client_free(cl);
        return failed(c, exit);
    }
    connect_all(c, cl);
    if (!(l = redlock_cmd_lock(c, cl, &exit))) {
        redlock_client_free(cl);
        return failed(c, exit);
    }
    rc = c->value ? redlock_lock_set_value(l, c->value, strlen(c->value)) : 0;
    if (rc == 0)
        rc = run_op(cl, l, c, op, &w);
    exit = exit_of(c, cl, l, op, rc);
    report(c, cl, l, op, exit, rc == 0);
    /* an acquired lock stays on the masters: freeing releases nothing */
    redlock_lock_free(l);
    redlock_client_free(cl);
    return exit;
}

int redlock_cmd_acquire(redlock_cmd *c, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return lock_op(c, OP_ACQUIRE);
}

int redlock_cmd_extend(redlock_cmd *c, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return lock_op(c, OP_EXTEND);
}

int redlock_cmd_release(redlock_cmd *c, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return lock_op(c, OP_RELEASE);
}
