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

static int run_op(redlock_lock *l, const redlock_cmd *c, enum op op)
{
    switch (op) {
    case OP_ACQUIRE:
        return redlock_acquire_for(l, c->acquire_wait_ms, c->ttl_ms);
    case OP_EXTEND:
        return redlock_extend(l, c->ttl_ms);
    default:
        return redlock_release(l);
    }
}

/* The exit code of the operation's outcome.  For extend and release a
 * timeout is the masters' (69), a refusal the value's (75). */
static int exit_of(const redlock_cmd *c, enum op op, int rc)
{
    if (op != OP_ACQUIRE && (rc == REDLOCK_ETIMEDOUT || rc == REDLOCK_ENOQUORUM))
        return rc == REDLOCK_ETIMEDOUT ? REDLOCK_EXIT_UNAVAIL : REDLOCK_EXIT_LOST;
    return redlock_cmd_exit_for(c, rc);
}

static void report(const redlock_cmd *c, redlock_client *cl, redlock_lock *l, enum op op,
                   int exit)
{
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);

    if (!c->json) {
        if (exit == 0 && op == OP_ACQUIRE) {
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
    if (op == OP_ACQUIRE && c->fencing && exit == 0)
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

    if (exit)
        return failed(c, exit);
    if (!(cl = redlock_cmd_client(c, NULL, 0, &exit)))
        return failed(c, exit);
    connect_all(c, cl);
    if (!(l = redlock_cmd_lock(c, cl, &exit))) {
        redlock_client_free(cl);
        return failed(c, exit);
    }
    rc = c->value ? redlock_lock_set_value(l, c->value, strlen(c->value)) : 0;
    if (rc == 0)
        rc = run_op(l, c, op);
    exit = exit_of(c, op, rc);
    if (rc != 0)
        redlock_cmd_error(c, "%s", redlock_lock_errstr(l));
    report(c, cl, l, op, exit);
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
