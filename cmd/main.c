/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* main.c -- `redlock SUBCOMMAND [options] ...`: the dispatch, and what the
 * subcommands share once their options are read (the client, the lock,
 * the exit code of a library error). */
#include "cmd/cmd.h"
#include "cmd/json.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

int redlock_cmd_exit_for(const redlock_cmd *c, int rc)
{
    switch (rc) {
    case REDLOCK_OK:
        return REDLOCK_EXIT_OK;
    case REDLOCK_ENOQUORUM:
        return c->conflict_exit;
    case REDLOCK_EINVAL:
        return REDLOCK_EXIT_USAGE;
    case REDLOCK_ETIMEDOUT:
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

/* A master's words that refuse this client for what it is: its password,
 * its ACL user or rights, its database (the handshake).  Waiting will not
 * change them. */
static int refuses_us(const char *s)
{
    return s && (strncmp(s, "handshake failed", 16) == 0 || strstr(s, "WRONGPASS") ||
                 strstr(s, "NOAUTH") || strstr(s, "NOPERM"));
}

/* Why master i refuses this client: its handshake's failure, else its
 * words in l's last operation or in the inspection in; NULL: it does not. */
static const char *refusal(const redlock_lock *l, const redlock_inspection *in, size_t i,
                           const redlock_node_stats *st)
{
    redlock_node_result nr;
    redlock_inspect_node v;
    if (!st->connected && refuses_us(st->last_error))
        return st->last_error;
    if (l && redlock_lock_node_result(l, i, &nr) == 0 && refuses_us(nr.detail))
        return nr.detail;
    if (in && redlock_inspection_node(in, i, &v) == 0 && refuses_us(v.detail))
        return v.detail;
    return NULL;
}

static int refusing(redlock_client *cl, const redlock_lock *l, const redlock_inspection *in,
                    char *first, size_t len)
{
    size_t n = redlock_client_nodes(cl), k = 0;
    int q = l ? redlock_lock_quorum(l) : 0;
    size_t quorum = q > 0 ? (size_t)q : redlock_client_quorum(cl);
    char words[900] = "";
    for (size_t i = 0; i < n; i++) {
        redlock_node_stats st;
        const char *why;
        if (redlock_client_node_stats(cl, i, &st) != 0 || !(why = refusal(l, in, i, &st)))
            continue;
        if (k++ == 0)           /* (copied: the next call may move the strings) */
            snprintf(words, sizeof words, "node %zu (%s): %s", i, st.address, why);
    }
    snprintf(first, len, "%zu of %zu, quorum %zu; first: %s", k, n, quorum, words);
    return k > 0 && n - k < quorum;
}

int redlock_cmd_refusing(redlock_client *cl, const redlock_lock *l, char *first, size_t len)
{
    return refusing(cl, l, NULL, first, len);
}

static int refused_line(const redlock_cmd *c, redlock_client *cl, const redlock_lock *l,
                        const redlock_inspection *in)
{
    char first[1024] = "";
    if (!refusing(cl, l, in, first, sizeof first))
        return 0;
    redlock_cmd_error(c, "the masters refuse this client's password, user or rights (%s)",
                      first);
    return 1;
}

int redlock_cmd_refused(const redlock_cmd *c, redlock_client *cl, const redlock_lock *l)
{
    return refused_line(c, cl, l, NULL);
}

int redlock_cmd_refused_inspection(const redlock_cmd *c, redlock_client *cl,
                                   const redlock_inspection *in)
{
    return refused_line(c, cl, NULL, in);
}

/* Whether the quorum's view of one inspection shows the lock held by
 * another: a holder other than `mine` that a quorum still grants (a
 * semaphore: as many as its permits; a reader: a writer, or a writer's
 * mark that turns new readers away). */
static int others_hold(const redlock_cmd *c, const redlock_inspection *in, const char *mine,
                       size_t mine_len)
{
    redlock_inspect_node q;
    size_t others = 0;
    if (redlock_inspection_node(in, REDLOCK_INSPECT_QUORUM, &q) != 0 ||
        q.result != REDLOCK_VOTE_OK)
        return 0;
    if (c->read && q.writer_waiting)
        return 1;
    for (size_t i = 0; i < q.listed; i++) {
        redlock_inspect_holder h;
        if (redlock_inspection_holder(in, REDLOCK_INSPECT_QUORUM, i, &h) != 0 || h.ttl_ms <= 0)
            continue;
        others += !(mine && h.len == mine_len && memcmp(h.value, mine, mine_len) == 0);
    }
    if (q.kind == REDLOCK_HELD_SEMAPHORE)
        return q.permits > 0 && others >= (size_t)q.permits;
    if (c->read)
        return q.kind == REDLOCK_HELD_MUTEX && others > 0;
    return others > 0;
}

/* The masters read afresh (redlock_inspect, on a client of its own: the
 * attempt's client may be inside its callback): 1 when a quorum of them
 * holds one of l's resources for another. */
static int held_on_quorum(const redlock_cmd *c, const redlock_lock *l)
{
    redlock_client *cl = NULL;
    redlock_options o = c->opts;
    char err[256];
    size_t mine_len = 0;
    const char *mine = redlock_lock_value(l, &mine_len);
    int n = c->dashdash >= 0 ? c->dashdash : c->nargs, held = 0;
    o.loop_thread = 0;
    if (redlock_client_new(&cl, NULL, c->nodes, c->nnodes, &o, err, sizeof err) != 0)
        return 0;
    (void)redlock_client_wait_connected(cl, redlock_client_nodes(cl), o.connect_timeout_ms);
    for (int r = 0; r < n && !held; r++) {
        redlock_inspection *in = NULL;
        (void)redlock_inspect(cl, c->args[r], strlen(c->args[r]), &in);
        held = in && others_hold(c, in, mine, mine_len);
        redlock_inspection_free(in);
    }
    redlock_client_free(cl);
    return held;
}

/* Held elsewhere: refusals of l's last attempt (into *refused) that alone
 * leave no quorum.  Fewer refusals cannot tell by themselves: the other
 * masters were out (hung, down, not counted), or the attempt was decided
 * early and the votes still on their way are unknown (a master that
 * would have refused too), or -w's deadline cut it (rc ETIMEDOUT) before
 * its votes came (on a slow machine, none may have).  Then the masters
 * are read: held elsewhere when a quorum of them holds it for another,
 * else an outage. */
static int held_elsewhere(const redlock_cmd *c, redlock_client *cl, const redlock_lock *l,
                          int rc, size_t *refused)
{
    size_t n = redlock_client_nodes(cl);
    redlock_node_result r;
    int q = redlock_lock_quorum(l);
    size_t quorum = q > 0 ? (size_t)q : redlock_client_quorum(cl);
    *refused = 0;
    for (size_t i = 0; i < n; i++)
        *refused += redlock_lock_node_result(l, i, &r) == 0 && r.vote == REDLOCK_VOTE_REFUSED;
    if (*refused > 0 && n - *refused < quorum)
        return 1;
    return (*refused > 0 || rc == REDLOCK_ETIMEDOUT) && held_on_quorum(c, l);
}

int redlock_cmd_acquire_exit(const redlock_cmd *c, redlock_client *cl, const redlock_lock *l,
                             int rc)
{
    size_t refused;
    if (rc == REDLOCK_OK)
        return REDLOCK_EXIT_OK;
    if (rc != REDLOCK_ENOQUORUM && rc != REDLOCK_EPERMITS && redlock_cmd_refused(c, cl, l))
        return REDLOCK_EXIT_CONFIG;
    /* no quorum (whichever failure was the most common), or -w ran out
     * (the call's deadline): held elsewhere by the last attempt's votes
     * or the masters read afresh, else the masters were out (unreachable,
     * hung, not counted) */
    if (rc != REDLOCK_ENOQUORUM && rc != REDLOCK_ETIMEDOUT && rc != REDLOCK_ECONNECT &&
        rc != REDLOCK_ESERVER && rc != REDLOCK_EUNCOUNTED && rc != REDLOCK_EFULL) {
        redlock_cmd_error(c, "%s", redlock_lock_errstr(l));
    } else if (held_elsewhere(c, cl, l, rc, &refused)) {
        if (strstr(redlock_lock_errstr(l), "held elsewhere"))
            redlock_cmd_error(c, "%s", redlock_lock_errstr(l));
        else    /* (told by the masters read afresh) */
            redlock_cmd_error(c, "%s; held elsewhere: a quorum of the masters holds it for "
                              "another", redlock_lock_errstr(l));
        return c->conflict_exit;
    } else {
        if (refused)
            redlock_cmd_error(c, "%s; an outage: %zu of %zu masters refused, too few to "
                              "tell the lock held (quorum %d), and no quorum of the masters "
                              "that answer holds it for another",
                              redlock_lock_errstr(l), refused, redlock_client_nodes(cl),
                              redlock_lock_quorum(l));
        else
            redlock_cmd_error(c, "%s", redlock_lock_errstr(l));
        return REDLOCK_EXIT_UNAVAIL;
    }
    return redlock_cmd_exit_for(c, rc);
}

void redlock_cmd_still_waiting(const redlock_cmd *c, const char *why, int64_t waited_ms,
                               int64_t left_ms)
{
    const char *last = why ? strstr(why, "last attempt: ") : NULL;
    char until[96] = "until it gets the lock (no -w)";
    if (last)
        why = last + strlen("last attempt: ");
    if (!why || !*why || strcmp(why, "none") == 0)
        why = "no answer from the masters yet";
    if (left_ms >= 0) {
        time_t end = time(NULL) + (time_t)((left_ms + 999) / 1000);
        struct tm tm;
        char at[32] = "?";
        if (localtime_r(&end, &tm))
            strftime(at, sizeof at, "%H:%M:%S", &tm);
        snprintf(until, sizeof until, "until %s (-w %.10g s)", at, (double)c->wait_ms / 1000.0);
    }
    redlock_cmd_error(c, "still waiting for the lock after %lld s: %s; it waits %s",
                      (long long)(waited_ms / 1000), why, until);
}

int redlock_cmd_connect(const redlock_cmd *c, redlock_client *cl, int64_t timeout_ms)
{
    int rc = redlock_client_wait_connected(cl, redlock_client_quorum(cl), timeout_ms);
    if (rc == 0)
        return 0;
    if (redlock_cmd_refused(c, cl, NULL))
        return REDLOCK_EXIT_CONFIG;
    redlock_cmd_error(c, "masters unreachable: %s", redlock_client_errstr(cl));
    return rc == REDLOCK_ECONNECT ? REDLOCK_EXIT_CONFIG : REDLOCK_EXIT_UNAVAIL;
}

redlock_client *redlock_cmd_client(redlock_cmd *c, struct event_base *base, int threaded,
                                   int connect, int *exit)
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
    if (base || !connect)
        return cl;
    /* a quorum of masters that cannot be reached fails now, not never */
    if ((*exit = redlock_cmd_connect(c, cl, o.connect_timeout_ms + o.node_timeout_ms)) != 0) {
        redlock_client_free(cl);
        return NULL;
    }
    return cl;
}

void redlock_cmd_json_failed(const redlock_cmd *c, int exit)
{
    redlock_json j;
    redlock_json_start(&j, stdout);
    redlock_json_bool(&j, "ok", 0);
    redlock_json_int(&j, "exit", exit);
    redlock_json_cstr(&j, "command", c->sub);
    redlock_json_cstr(&j, "error", redlock_cmd_last_error());
    redlock_json_finish(&j);
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
        else if (rc > 0 && c.json && strcmp(c.sub, "run") != 0)
            redlock_cmd_json_failed(&c, rc);    /* a bad option: the object all the same */
        redlock_cmd_free(&c);
        return rc < 0 ? 0 : rc;
    }
    fprintf(stderr, "redlock: unknown subcommand '%s' (redlock --help)\n", argv[1]);
    return REDLOCK_EXIT_USAGE;
}
