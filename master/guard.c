/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* guard.c -- guards for what the Redlock algorithm assumes of a master
 * (docs/safety.md, "What it assumes"): that it did not forget keys (a
 * restart without persistence), that its clock runs at our rate (no jump),
 * and that nothing but expiry removes a key (no eviction, persistence).
 *
 *   restart   INFO server at each handshake: uptime_in_seconds says when it
 *             started, run_id whether it is another process than the last
 *             handshake's.  Within the window after a restart its OK votes
 *             do not count: a key it lost may still be held elsewhere.
 *             Unless it is durable: appendonly yes, appendfsync always and
 *             no-appendfsync-on-rewrite no (their CONFIG GETs) at every
 *             reading of this run, and at the last reading of the run
 *             before it if this client saw one; its AOF on since its start
 *             (the first INFO persistence of the run: aof_enabled, no
 *             rewrite yet, so not switched on at run time).  Such a master
 *             acknowledged no key it had not written to disk, and loaded
 *             them all again: it counts at once.  A cluster's master
 *             only when this client read its run before the restart as a
 *             master (INFO replication's role): its file keeps what it
 *             acknowledged, not the keys of a master it took over from,
 *             and once restarted nothing it tells (master_replid2 is
 *             zeros again) says it ever was a replica.
 *   clock     the TIME samples (handshake, then at least every
 *             clock_probe_ms: riding with requests, below, or probe.c's): an
 *             offset that moved by more than the drift allowance between
 *             two samples, or since a reference sample up to one window
 *             old (a rate beyond drift_factor), stops it counting for the
 *             window: keys it expired early may still be held elsewhere.
 *   config    CONFIG GET maxmemory-policy, appendonly, appendfsync,
 *             no-appendfsync-on-rewrite, save at each
 *             handshake: an evicting policy or no persistence is reported,
 *             and in strict mode it does not count.
 *   twins     two masters whose INFO gives the same run_id are one server
 *             under two addresses (localhost and 127.0.0.1, an alias):
 *             only the lowest-numbered one's answers count (fanout.c).
 *
 * INFO and CONFIG GET are read again on the open connection every
 * REREAD_PERIODS probe periods (riding in a write, below): a configuration
 * changed at run time is seen within that.  A clock seen jumping ahead is
 * told to the locks (net->clock_ahead: watchdog.c), since keys it held may
 * have expired early.
 *
 * INFO and CONFIG are optional steps: an ACL may refuse them; the master
 * is then reported (REDLOCK_GUARD_UNKNOWN) and counted unless strict.
 * Why a file of its own: master.c was at its ~500 lines; this is one job
 * (what we can and cannot trust of a master), fed by master.c's handshake
 * and samples and asked by fanout.c for every OK vote.  Node events go out
 * from the loop (never from inside a reply being counted).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/master.h"

#define UNSAFE (REDLOCK_GUARD_EVICTS | REDLOCK_GUARD_NO_PERSIST | REDLOCK_GUARD_UNKNOWN)

/* INFO and CONFIG GET are read again every this many clock_probe_ms. */
#define REREAD_PERIODS 5

/* The longest error code a refusal names (Redis's are shorter). */
#define MAX_CODE 12
/* The longest configuration text (of every way the steps can be refused,
 * unread or read): guard_up's. */
_Static_assert(sizeof ((redlock__guard *)0)->config_text >=
                   sizeof "INFO server refused (); CONFIG GET appendfsync refused (); INFO "
                          "persistence unread; CONFIG GET no-appendfsync-on-rewrite unread; "
                          "maxmemory-policy  may evict keys with a ttl; persists nothing "
                          "(appendonly no, no save point)" +
                   MAX_CODE * 2 + sizeof ((redlock__guard *)0)->policy - 1,
               "a master's configuration text fits whole");

static void tell_cb(evutil_socket_t fd, short what, void *arg);

void redlock__guard_init(redlock__master *m)
{
    m->guard.uptime_s = -1;
    m->guard.clear_ttl = -1;
    m->guard.keeps = m->guard.kept_before = m->guard.aof_start = -1;
    m->guard.run_keeps = 0;
    m->guard.note_uptime = -1;
    m->guard.role_master = m->guard.master_before = -1;
    m->twin_of = m->index;
    evtimer_assign(&m->guard.tell, m->net->loop->base, tell_cb, m);
}

void redlock__guard_close(redlock__master *m)
{
    evtimer_del(&m->guard.tell);
}

/* Report (from the loop) what changed. */
static void poke(redlock__master *m)
{
    evtimer_del(&m->guard.tell);
    event_active(&m->guard.tell, EV_TIMEOUT, 1);
}

/* A window in microseconds: -1 is the largest ttl in use and its drift. */
static int64_t window_us(const redlock__net *net, int64_t opt_ms)
{
    if (opt_ms >= 0)
        return opt_ms * 1000;
    if (net->max_ttl_ms <= 0)
        return 0;
    return net->max_ttl_ms * 1000 +
           redlock__drift_us(net->max_ttl_ms, net->drift_factor, net->drift_min_ms);
}

/* Did this run of the master lose no acknowledged key in its restart?
 * A cluster's master may also lack keys its slots' old master granted,
 * unless this client saw it a master, durable, before (`shard`), or every
 * lock waited for the replicas (replica_acks: `shard` 0). */
static int durable(const redlock__guard *g, int shard)
{
    return g->keeps == 1 && g->run_keeps == 1 && g->aof_start == 1 &&
           (shard && !REDLOCK__MUTANT(PROMOTED_RESTART)
                ? g->kept_before == 1 && g->master_before == 1
                : g->kept_before != 0 || REDLOCK__MUTANT(DURABLE_FORGETS));
}

/* The end of the restart guard's window for m, or 0 when it is past (or
 * the guard is off, or the restart unknown). */
static int64_t restart_until(const redlock__master *m, int64_t now)
{
    const redlock__guard *g = &m->guard;
    const redlock__net *net = m->net;
    int64_t w;

    if (net->restart_guard_ms && g->uptime_s >= 0 && !REDLOCK__MUTANT(NO_GUARD) &&
        (w = window_us(net, net->restart_guard_ms)) > 0 && now < g->restart_at_us + w)
        return g->restart_at_us + w;
    return 0;
}

/* The end of the window after m took over a cluster's slots (failover),
 * or 0.  No durability exempts it: the keys were on another server.  But
 * a replica promoted when every lock waited for the replicas
 * (replica_acks) holds them all. */
static int64_t failover_until(const redlock__master *m, int64_t now)
{
    const redlock__guard *g = &m->guard;
    int64_t w;

    if ((m->net->replica_acks && g->failover_replica) || REDLOCK__MUTANT(NO_FAILOVER_GUARD))
        return 0;
    if (m->net->restart_guard_ms && g->failover_at_us &&
        (w = window_us(m->net, m->net->restart_guard_ms)) > 0 && now < g->failover_at_us + w)
        return g->failover_at_us + w;
    return 0;
}

void redlock__guard_failover(redlock__master *m, int64_t now, const char *text, int replica)
{
    redlock__guard *g = &m->guard;

    g->failover_at_us = now;
    g->failover_replica = replica;
    g->failover_unknown = 0;
    snprintf(g->failover_text, sizeof g->failover_text, "%s", text);
    g->clear_ttl = -1;
    g->told_uncounted = 0;
    poke(m);
}

unsigned redlock__guard_flags(const redlock__master *m, int64_t now, int *counted,
                              int64_t *until_us)
{
    const redlock__guard *g = &m->guard;
    const redlock__net *net = m->net;
    unsigned flags = g->config | (g->keeps == 1 ? REDLOCK_GUARD_DURABLE : 0);
    int64_t until = 0, w;

    if ((w = restart_until(m, now)) && !durable(g, m->shard && !m->net->replica_acks)) {
        flags |= REDLOCK_GUARD_RESTARTED;
        until = w;
    }
    if ((w = failover_until(m, now))) {
        flags |= REDLOCK_GUARD_RESTARTED;
        if (w > until)
            until = w;
    }
    if (net->clock_guard_ms && g->jump_at_us &&
        (w = window_us(net, net->clock_guard_ms)) > 0 && now < g->jump_at_us + w) {
        flags |= REDLOCK_GUARD_CLOCK;
        if (g->jump_at_us + w > until)
            until = g->jump_at_us + w;
    }
    if (m->twin_of != m->index)
        flags |= REDLOCK_GUARD_DUPLICATE;
    *counted = !until && !(net->strict && (flags & UNSAFE)) && !(flags & REDLOCK_GUARD_DUPLICATE);
    *until_us = (!*counted && !until) || (flags & REDLOCK_GUARD_DUPLICATE) ? -1 : until;
    return flags;
}

static const char durable_text[] =
    "appendonly yes and appendfsync always since its start keep every acknowledged key";

/* Why a restarted master is not durable (see durable()), in a few words. */
static const char *not_durable(const redlock__guard *g, int shard)
{
    if (shard && g->keeps == 1 && g->run_keeps == 1 && g->aof_start == 1 &&
        (g->kept_before != 1 || g->master_before != 1))
        return "a cluster's master not seen as one before: it may lack its slots' keys";
    if (g->keeps != 1)
        return "a master without appendfsync always may have lost its locks in a restart";
    if (g->run_keeps != 1)
        return "appendfsync always was set after its start";
    if (g->aof_start != 1)
        return "its AOF was not on since its start";
    return "it ran without appendfsync always before this restart";
}

int redlock__guard_judge(redlock__master *m, int64_t now, const char **why)
{
    redlock__guard *g = &m->guard;
    int counted;
    int64_t until;
    unsigned flags = redlock__guard_flags(m, now, &counted, &until);

    if (counted) {
        if (restart_until(m, now)) {
            /* durable, within the window it would have had: say why it
             * counts (written once per handshake, read by every vote) */
            if (g->note_uptime != g->uptime_s)
                snprintf(g->note, sizeof g->note, "counted at once after its restart %lld s ago: %s",
                         (long long)(g->note_uptime = g->uptime_s), durable_text);
            *why = g->note;
            return 1;
        }
        /* windows only end: until something new is seen, or a larger ttl
         * widens them, it counts without asking again */
        if (!(flags & (REDLOCK_GUARD_RESTARTED | REDLOCK_GUARD_CLOCK)))
            g->clear_ttl = m->net->max_ttl_ms;
        return 1;
    }
    if (flags & REDLOCK_GUARD_DUPLICATE) {
        *why = redlock__guard_twin_why(m, m->twin_of);
        return 0;
    }
    if ((flags & REDLOCK_GUARD_RESTARTED) && failover_until(m, now) == until)
        snprintf(g->why, sizeof g->why,
                 "not counted for %.1f s after %s (%s; counts in %lld ms): "
                 "the restart guard (a promoted replica may lack keys its master acknowledged; "
                 "docs/safety.md)",
                 (double)(until - g->failover_at_us) / 1e6,
                 g->failover_unknown ? "this client first saw it promoted, not knowing when "
                                       "it took over its slots"
                                     : "it took over its slots",
                 g->failover_text, (long long)((until - now) / 1000 + 1));
    else if (flags & REDLOCK_GUARD_RESTARTED)
        snprintf(g->why, sizeof g->why,
                 "not counted for %.1f s after its start (%s; counts in %lld ms): the restart "
                 "guard (%s; docs/safety.md)",
                 (double)(until - g->restart_at_us) / 1e6, g->restart_text,
                 (long long)((until - now) / 1000 + 1), not_durable(g, m->shard && !m->net->replica_acks));
    else if (flags & REDLOCK_GUARD_CLOCK)
        snprintf(g->why, sizeof g->why, "not counted: %s; counts in %lld ms", g->clock_text,
                 (long long)((until - now) / 1000 + 1));
    else
        snprintf(g->why, sizeof g->why, "not counted (strict): %s", g->config_text);
    *why = g->why;
    if (!g->told_uncounted)
        poke(m);    /* a larger ttl widened the window: say so */
    return 0;
}

const char *redlock__guard_text(redlock__master *m, int64_t now)
{
    redlock__guard *g = &m->guard;
    int counted;
    int64_t until;
    unsigned flags = redlock__guard_flags(m, now, &counted, &until);
    size_t n = 0;
    char twin[80] = "", kept[176] = "";
    const char *part[6] = { twin, flags & REDLOCK_GUARD_RESTARTED ? g->restart_text : "", kept,
                            flags & REDLOCK_GUARD_CLOCK ? g->clock_text : "",
                            flags & UNSAFE ? g->config_text : "",
                            failover_until(m, now) ? g->failover_text : "" };

    if (!restart_until(m, now) || durable(g, m->shard && !m->net->replica_acks))
        part[1] = "";
    if (flags & REDLOCK_GUARD_DUPLICATE)
        snprintf(twin, sizeof twin, "same server as node %zu (run_id %s)", m->twin_of, g->run_id);
    if (restart_until(m, now) && !(flags & REDLOCK_GUARD_RESTARTED))
        snprintf(kept, sizeof kept, "%s, counted at once: %s", g->restart_text, durable_text);
    g->why[0] = '\0';
    for (int i = 0; i < 6; i++) {
        if (!part[i][0] || n >= sizeof g->why - 1)
            continue;
        n += (size_t)snprintf(g->why + n, sizeof g->why - n, "%s%s", n ? "; " : "", part[i]);
    }
    return g->why;
}

const char *redlock__guard_twin_why(redlock__master *m, size_t other)
{
    snprintf(m->guard.why, sizeof m->guard.why, "not counted: same server as node %zu (run_id %s)",
             other, m->guard.run_id);
    return m->guard.why;
}

static void set_twin(redlock__master *m, size_t first, unsigned twins)
{
    if (REDLOCK__MUTANT(TWINS))
        first = m->index;
    if (m->twin_of == first && m->twins == twins)
        return;
    m->twin_of = first;
    m->twins = twins;
    m->guard.clear_ttl = -1;
    poke(m);
}

/* The masters whose run_id is `id` (a copy: it may be theirs): the first
 * is the one that counts. */
static void regroup(redlock__master *all, size_t n, const char *id)
{
    size_t first = SIZE_MAX;
    unsigned count = 0;

    if (!id[0])
        return;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(all[i].guard.run_id, id) == 0) {
            first = first == SIZE_MAX ? i : first;
            count++;
        }
    }
    for (size_t i = first; count && i < n; i++)
        if (strcmp(all[i].guard.run_id, id) == 0)
            set_twin(&all[i], first, count - 1);
}

void redlock__guard_twins(redlock__master *all, size_t n, size_t node, const char *old)
{
    char id[sizeof all[node].guard.run_id];

    memcpy(id, all[node].guard.run_id, sizeof id);
    set_twin(&all[node], node, 0);
    regroup(all, n, old);
    regroup(all, n, id);
}

static void tell(redlock__master *m, int event, const char *detail)
{
    if (m->net->event)
        m->net->event(m->net->event_privdata, m->index, event, detail);
}

/* Report what changed since the last report; at a window's end, again. */
static void tell_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__master *m = arg;
    redlock__guard *g = &m->guard;
    redlock__loop *loop = m->net->loop;
    int counted;
    int64_t now, until;
    unsigned flags;
    (void)fd;
    (void)what;

    if (loop->closing)
        return;
    redlock__enter(loop);
    if (g->ahead) {
        g->ahead = 0;
        if (m->net->clock_ahead)
            m->net->clock_ahead(m->net->event_privdata, m->index);
    }
    now = redlock__now(loop);
    flags = redlock__guard_flags(m, now, &counted, &until);
    if ((flags & UNSAFE) && (flags & UNSAFE) != (g->told & UNSAFE))
        tell(m, REDLOCK_NODE_UNSAFE, g->config_text);
    if (!counted && !g->told_uncounted) {
        const char *why = "";
        redlock__guard_judge(m, now, &why);
        tell(m, REDLOCK_NODE_UNCOUNTED, why);
    } else if (counted && g->told_uncounted) {
        tell(m, REDLOCK_NODE_COUNTED, "its OK votes count again");
    }
    g->told = flags;
    g->told_uncounted = !counted;
    if (until > now && !loop->closing)
        redlock__timer_add(loop, &g->tell, until - now + 1000);
    redlock__leave(loop);
}

/* ---- restarts and configuration: the handshake's INFO and CONFIG GET ---- */

/* A reading: the steps re-read on the open connection, then (at the
 * handshake only: what it tells is the run's start) INFO persistence. */
enum { STEP_INFO, STEP_POLICY, STEP_AOF, STEP_FSYNC, STEP_REWRITE, STEP_SAVE, STEP_PERSIST,
       STEP_REPL };

/* The value of "name:" in INFO's "name:value\r\n" lines, or NULL. */
static const char *info_field(const char *s, size_t len, const char *name, size_t *vlen)
{
    size_t nl = strlen(name);

    for (size_t i = 0; i + nl < len; i++) {
        if ((i == 0 || s[i - 1] == '\n') && memcmp(s + i, name, nl) == 0 && s[i + nl] == ':') {
            size_t j = i + nl + 1, k = j;
            while (k < len && s[k] != '\r' && s[k] != '\n')
                k++;
            *vlen = k - j;
            return s + j;
        }
    }
    return NULL;
}

/* A step the master refused (r: its error, whose code, the first word:
 * NOPERM, ERR, the text names) or answered with what we cannot read (r
 * NULL).  Told in guard_up, grouped: an ACL refuses every step of a
 * command alike. */
static void unknown(redlock__guard *g, size_t step, const redlock__reply *r)
{
    size_t code = 0;

    g->hello_config |= REDLOCK_GUARD_UNKNOWN;
    if (!r) {
        g->hello_unread |= 1u << step;
        return;
    }
    while (code < r->len && code < MAX_CODE && r->str[code] != ' ')
        code++;
    if (!g->hello_refused)
        snprintf(g->hello_code, sizeof g->hello_code, "%.*s", (int)code, r->str);
    g->hello_refused |= 1u << step;
}

static void read_info(redlock__master *m, const redlock__reply *r)
{
    redlock__guard *g = &m->guard;
    size_t idlen = 0, ulen = 0;
    const char *id = info_field(r->str, r->len, "run_id", &idlen);
    const char *up = info_field(r->str, r->len, "uptime_in_seconds", &ulen);
    long long uptime = 0;
    int changed;
    char old[sizeof g->run_id];

    if (!id || !up || idlen == 0 || idlen >= sizeof g->run_id || ulen == 0 || ulen > 12) {
        unknown(g, STEP_INFO, NULL);
        return;
    }
    for (size_t i = 0; i < ulen && up[i] >= '0' && up[i] <= '9'; i++)
        uptime = uptime * 10 + (up[i] - '0');
    changed = g->run_id[0] && (strlen(g->run_id) != idlen || memcmp(g->run_id, id, idlen) != 0);
    g->restarts += changed;
    memcpy(old, g->run_id, sizeof old);
    memcpy(g->run_id, id, idlen);
    g->run_id[idlen] = '\0';
    if (strcmp(old, g->run_id) != 0) {
        /* a new run: its durability is read anew (guard_up, read_persist) */
        g->kept_before = old[0] ? g->keeps : -1;
        g->master_before = old[0] ? g->role_master : -1;
        g->role_master = -1;
        g->keeps = g->aof_start = -1;
        g->run_keeps = 1;
        /* (a restart: the first run read is none, a client's first
         * operations going out before its INFO is read) */
        if (changed)
            g->run_seen_us = redlock__now(m->net->loop);
    }
    if (strcmp(old, g->run_id) != 0 && m->net->identified)
        m->net->identified(m->net->event_privdata, m->index, old);
    g->uptime_s = uptime;
    g->clear_ttl = -1;
    /* uptime is whole seconds, so it restarted at the latest uptime s
     * before now: counting from then errs on the safe side. */
    g->restart_at_us = redlock__now(m->net->loop) - uptime * 1000000;
    snprintf(g->restart_text, sizeof g->restart_text, "restarted %lld s ago%s", uptime,
             changed ? ", a new run_id" : "");
}

/* INFO persistence, the run's first: was the AOF on since its start?
 * Switching it on at run time rewrites it (aof_rewrites, or one scheduled
 * or in progress), so no rewrite yet says it was on from the start, and
 * loaded then.  Without those fields (before Redis 7.0): unknown, no. */
static void read_persist(redlock__guard *g, const redlock__reply *r)
{
    static const char *const want[4] = { "aof_enabled", "aof_rewrites", "aof_rewrite_scheduled",
                                         "aof_rewrite_in_progress" };
    int ok = 1;

    if (g->aof_start != -1)
        return;
    for (int i = 0; i < 4 && ok; i++) {
        size_t vlen = 0;
        const char *v = info_field(r->str, r->len, want[i], &vlen);
        ok = v && vlen == 1 && v[0] == (i == 0 ? '1' : '0');
    }
    g->aof_start = ok;
}

/* INFO replication of a cluster's master: a master_replid2 other than
 * zeros says it was promoted from a replica, at a moment we cannot know.
 * Seen for the first time (or a new one), it is taken as a failover now:
 * now is no earlier than the promotion.  Unreadable: the same. */
static void read_repl(redlock__master *m, const redlock__reply *r)
{
    redlock__guard *g = &m->guard;
    size_t len = 0;
    const char *id;
    char now_id[sizeof g->replid2];
    const char *role = r->type == REDLOCK__REPLY_STRING
                           ? info_field(r->str, r->len, "role", &len) : NULL;

    g->role_master = !role ? -1 : len == 6 && memcmp(role, "master", 6) == 0;
    id = r->type == REDLOCK__REPLY_STRING ? info_field(r->str, r->len, "master_replid2", &len)
                                          : NULL;
    if (!id || len == 0 || len >= sizeof now_id)
        snprintf(now_id, sizeof now_id, "?");
    else
        snprintf(now_id, sizeof now_id, "%.*s", (int)len, id);
    if (strcmp(now_id, g->replid2) == 0)
        return;
    snprintf(g->replid2, sizeof g->replid2, "%s", now_id);
    if (strspn(now_id, "0") != strlen(now_id)) {
        redlock__guard_failover(m, redlock__now(m->net->loop),
                                now_id[0] == '?' ? "INFO replication unread: it may be a "
                                                   "promoted replica"
                                                 : "a promoted replica: master_replid2 is set",
                                now_id[0] != '?');
        g->failover_unknown = 1;    /* when it took over: unknown */
    }
}

static int is(const redlock__reply *v, const char *word)
{
    return v->len == strlen(word) && memcmp(v->str, word, v->len) == 0;
}

static void hello_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__master *m = privdata;
    redlock__guard *g = &m->guard;
    const redlock__reply *v;
    (void)why;

    if (!r)
        return;
    if (tag == STEP_REPL) {
        read_repl(m, r);
        return;
    }
    if (r->type == REDLOCK__REPLY_ERROR) {
        unknown(g, tag, r);
        return;
    }
    if (tag == STEP_INFO || tag == STEP_PERSIST) {
        if (r->type == REDLOCK__REPLY_STRING && tag == STEP_INFO)
            read_info(m, r);
        else if (r->type == REDLOCK__REPLY_STRING)
            read_persist(g, r);
        return;
    }
    /* CONFIG GET name: [name, value] (an unknown name: empty) */
    if (r->type != REDLOCK__REPLY_ARRAY || r->elements != 2 ||
        (v = r->element[1])->type != REDLOCK__REPLY_STRING) {
        unknown(g, tag, NULL);
    } else if (tag == STEP_POLICY) {
        snprintf(g->policy, sizeof g->policy, "%.*s", (int)(v->len < 31 ? v->len : 31), v->str);
    } else if (tag == STEP_AOF) {
        g->hello_aof = is(v, "yes");
    } else if (tag == STEP_FSYNC) {
        g->hello_fsync = is(v, "always");
    } else if (tag == STEP_REWRITE) {
        /* yes skips the fsync while a child saves */
        g->hello_rewrite = is(v, "no");
    } else {
        g->hello_save = v->len > 0;     /* "" is no save point */
    }
}

/* A reading of INFO and CONFIG GET begins. */
static void reading(redlock__guard *g)
{
    g->hello_config = 0;
    g->hello_aof = g->hello_save = g->hello_fsync = g->hello_rewrite = -1;
    g->policy[0] = '\0';
    g->hello_refused = g->hello_unread = 0;
    g->rereading = 0;
}

int redlock__guard_hello(redlock__master *m, redlock__conn *cn)
{
    redlock__guard *g = &m->guard;
    redlock__slot sl = { hello_reply, m, 0, NULL, 0, 0 };
    static const char *const info[2] = { "INFO", "server" };
    static const size_t info_len[2] = { 4, 6 };
    static const char *const persist[2] = { "INFO", "persistence" };
    static const size_t persist_len[2] = { 4, 11 };
    static const char *const name[5] = { "maxmemory-policy", "appendonly", "appendfsync",
                                          "no-appendfsync-on-rewrite", "save" };
    int rc;

    reading(g);
    g->uptime_s = -1;       /* until this handshake's INFO says */
    g->clear_ttl = -1;
    g->read_at_us = redlock__now(m->net->loop);
    sl.tag = STEP_INFO;
    rc = redlock__conn_hello(cn, 2, info, info_len, &sl);
    for (int i = 0; i < 5 && rc == 0; i++) {
        const char *argv[3] = { "CONFIG", "GET", name[i] };
        size_t len[3] = { 6, 3, strlen(name[i]) };
        sl.tag = STEP_POLICY + (size_t)i;
        rc = redlock__conn_hello(cn, 3, argv, len, &sl);
    }
    sl.tag = STEP_PERSIST;
    if (rc == 0)
        rc = redlock__conn_hello(cn, 2, persist, persist_len, &sl);
    if (rc == 0 && m->shard) {
        static const char *const repl[2] = { "INFO", "replication" };
        static const size_t repl_len[2] = { 4, 11 };
        sl.tag = STEP_REPL;
        rc = redlock__conn_hello(cn, 2, repl, repl_len, &sl);
    }
    return rc;
}

/* The steps in `mask`, "INFO server, persistence refused (NOPERM)" (the
 * INFO steps, then the CONFIG GETs; code NULL: none), into config_text at
 * n: its new end. */
static size_t told_unknown(redlock__guard *g, unsigned mask, const char *what, const char *code,
                           size_t n)
{
    static const char *const name[] = { "server", "maxmemory-policy", "appendonly",
                                        "appendfsync", "no-appendfsync-on-rewrite", "save",
                                        "persistence" };
    static const unsigned family[2] = { 1u << STEP_INFO | 1u << STEP_PERSIST,
                                        ~(1u << STEP_INFO | 1u << STEP_PERSIST) };
    char *t = g->config_text;
    size_t size = sizeof g->config_text;

    t[n] = '\0';
    for (int f = 0; f < 2; f++) {
        unsigned steps = mask & family[f];
        if (!steps)
            continue;
        n += (size_t)snprintf(t + n, size - n, "%s%s", n ? "; " : "", f ? "CONFIG GET" : "INFO");
        for (size_t i = 0, k = 0; i < sizeof name / sizeof *name; i++)
            if (steps & 1u << i)
                n += (size_t)snprintf(t + n, size - n, "%s%s", k++ ? ", " : " ", name[i]);
        n += (size_t)snprintf(t + n, size - n, " %s", what);
        if (code)
            n += (size_t)snprintf(t + n, size - n, " (%s)", code);
    }
    return n;
}

void redlock__guard_up(redlock__master *m)
{
    redlock__guard *g = &m->guard;
    unsigned config = g->hello_config;
    size_t n = told_unknown(g, g->hello_refused, "refused", g->hello_code, 0);

    n = told_unknown(g, g->hello_unread, "unread", NULL, n);
    if (!strncmp(g->policy, "volatile-", 9) || !strncmp(g->policy, "allkeys-", 8)) {
        config |= REDLOCK_GUARD_EVICTS;
        n += (size_t)snprintf(g->config_text + n, sizeof g->config_text - n,
                              "%smaxmemory-policy %s may evict keys with a ttl", n ? "; " : "",
                              g->policy);
    }
    if (g->hello_aof == 0 && g->hello_save == 0 && n < sizeof g->config_text) {
        config |= REDLOCK_GUARD_NO_PERSIST;
        snprintf(g->config_text + n, sizeof g->config_text - n,
                 "%spersists nothing (appendonly no, no save point)", n ? "; " : "");
    }
    g->config = config;
    g->keeps = g->hello_aof == 1 && g->hello_fsync == 1 && g->hello_rewrite == 1;
    g->run_keeps &= g->keeps;
    g->clear_ttl = -1;
    poke(m);
}

/* ---- clock samples ---------------------------------------------------------- */

static int parse_ll(const redlock__reply *r, long long *out)
{
    long long v = 0;
    if (r->type != REDLOCK__REPLY_STRING || r->len == 0 || r->len > 18)
        return -1;
    for (size_t i = 0; i < r->len; i++) {
        if (r->str[i] < '0' || r->str[i] > '9')
            return -1;
        v = v * 10 + (r->str[i] - '0');
    }
    *out = v;
    return 0;
}

int redlock__time_parse(const redlock__reply *r, int64_t *us)
{
    long long s, u;
    if (r->type != REDLOCK__REPLY_ARRAY || r->elements != 2 || parse_ll(r->element[0], &s) != 0 ||
        parse_ll(r->element[1], &u) != 0 || u >= 1000000 || s > INT64_MAX / 1000000 - 1)
        return -1;
    *us = (int64_t)s * 1000000 + u;
    return 0;
}

/* Did the offset move by more than the drift allowance over `interval`
 * (both samples' errors added)?  Then the clock guard trips. */
static int jumped(redlock__master *m, int64_t change, int64_t interval, int64_t err, int64_t now)
{
    const redlock__net *net = m->net;
    redlock__guard *g = &m->guard;
    int64_t allow = (int64_t)((double)interval * net->drift_factor) + net->drift_min_ms * 1000 + err;

    if ((change <= allow && change >= -allow) || REDLOCK__MUTANT(NO_CLOCK_GUARD))
        return 0;
    g->ahead |= change > 0;
    g->jumps++;
    g->jump_at_us = now;
    g->clear_ttl = -1;
    snprintf(g->clock_text, sizeof g->clock_text,
             "its clock moved %+lld ms against ours in %lld ms (allowance %lld ms)",
             (long long)(change / 1000), (long long)(interval / 1000), (long long)(allow / 1000));
    poke(m);
    return 1;
}

void redlock__master_time(redlock__master *m, int64_t server_us, int64_t sent_us,
                          int64_t now_us)
{
    redlock__clock_sample *c = &m->clock;
    redlock__guard *g = &m->guard;
    int64_t offset, err, jump = 0;

    /* The server read its clock somewhere between send and reply: take the
     * midpoint (the error is at most half the round trip, plus TIME's 1 us). */
    offset = server_us - (sent_us + (now_us - sent_us) / 2);
    err = (now_us - sent_us) / 2 + 1;
    if (c->samples) {
        c->change_us = offset - c->offset_us;
        c->interval_us = now_us - c->at_us;
        if (m->net->clock_guard_ms) {
            /* a jump between two samples; a rate off over a longer span */
            jump = jumped(m, c->change_us, c->interval_us, c->err_us + err, now_us) ||
                   (g->ref_at_us && jumped(m, offset - g->ref_offset_us, now_us - g->ref_at_us,
                                           g->ref_err_us + err, now_us));
        }
    }
    c->offset_us = offset;
    c->at_us = now_us;
    c->err_us = err;
    c->samples++;
    /* The rate is judged over at most one window: what a ttl can suffer. */
    if (jump || !g->ref_at_us || now_us - g->ref_at_us > window_us(m->net, m->net->clock_guard_ms)) {
        g->ref_offset_us = offset;
        g->ref_at_us = now_us;
        g->ref_err_us = err;
    }
}

static void ride_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__master *m = privdata;
    int64_t server_us;
    (void)tag;
    (void)why;

    m->time_riding = 0;
    if (r && redlock__time_parse(r, &server_us) == 0)
        redlock__master_time(m, server_us, m->ride_sent_us, redlock__now(m->net->loop));
}

/* The configuration read again on the open connection: the handshake's
 * INFO server and CONFIG GETs, judged like the handshake's once the last
 * reply came.  No reply (the connection was lost): the next handshake
 * reads them anyway. */
static void reread_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__master *m = privdata;

    hello_reply(privdata, tag, r, why);
    if (tag == STEP_SAVE) {
        m->guard.rereading = 0;
        if (r)
            redlock__guard_up(m);
    }
}

static void reread(redlock__master *m, redlock__conn *cn, int64_t now)
{
    static const char *const cmd[STEP_SAVE + 1] = {
        "*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n",
        "*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$16\r\nmaxmemory-policy\r\n",
        "*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$10\r\nappendonly\r\n",
        "*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$11\r\nappendfsync\r\n",
        "*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$25\r\nno-appendfsync-on-rewrite\r\n",
        "*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$4\r\nsave\r\n" };
    redlock__slot sl = { reread_reply, m, 0, NULL, 0, 0 };
    size_t step;

    reading(&m->guard);
    m->guard.read_at_us = now;
    for (step = STEP_INFO; step <= STEP_SAVE; step++) {
        sl.tag = step;
        if (redlock__conn_send(cn, cmd[step], strlen(cmd[step]), NULL, 0, &sl, now) != 0)
            break;      /* out of memory: the next period reads them again */
    }
    m->guard.rereading = step > STEP_SAVE;
}

/* Requests are about to be written: the master's TIME rides along when its
 * last sample left half a probe period ago or more.  One TIME costs the
 * server next to nothing in a write it reads anyway, where a TIME alone
 * costs a write, a read and a reply on both sides, for every client; so
 * a client that writes to a master at least every 3/8 of the period never
 * probes it alone (probe.c does at 7/8 when nothing else went).  One at a
 * time, so that its reply is matched with the moment it left.  Every
 * REREAD_PERIODS periods INFO and CONFIG GET ride along the same way (an
 * idle master's probe carries them). */
void redlock__guard_flushing(void *owner, redlock__conn *cn)
{
    static const char time_cmd[] = "*1\r\n$4\r\nTIME\r\n";
    redlock__master *m = owner;
    redlock__slot sl = { ride_reply, m, 0, NULL, 0, 0 };
    int64_t now, period_us = m->net->clock_probe_ms * 1000;

    if (period_us <= 0 || cn->count >= m->net->max_pending)
        return;
    now = redlock__now(m->net->loop);
    if (!m->time_riding && now - m->time_sent_us >= period_us / 2 &&
        redlock__conn_send(cn, time_cmd, sizeof time_cmd - 1, NULL, 0, &sl, now) == 0) {
        m->time_riding = 1;
        m->ride_sent_us = m->time_sent_us = now;
    }
    if (!m->guard.rereading && now - m->guard.read_at_us >= period_us * REREAD_PERIODS)
        reread(m, cn, now);
}
