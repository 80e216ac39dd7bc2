/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* commands.c -- the command table and the dispatch.
 *
 * What the library sends a master (found by reading it: lock/, kinds/,
 * master/, conn/, cluster/, client/, and every redis.call in its scripts):
 *   handshake (conn.c, master.c, guard.c): AUTH [user] password, SELECT db,
 *     PING, CLIENT INFO, TIME, INFO server | persistence | replication,
 *     CONFIG GET maxmemory-policy | appendonly | appendfsync |
 *     no-appendfsync-on-rewrite | save, SCRIPT LOAD body
 *   a connection lost with a write in it (master.c): CLIENT KILL ID id ADDR addr
 *   the locks (lock/, kinds/): SET k v NX PX ttl, SET k 1 PX ttl, INCR,
 *     EXISTS, SADD, SISMEMBER, SREM, DEL, ZREM, EVALSHA, EVAL (on NOSCRIPT)
 *   waiters (announce.c): SUBSCRIBE, UNSUBSCRIBE; pushes from PUBLISH
 *   clock probe (probe.c, guard.c): TIME
 *   clusters (cluster/): CLUSTER SLOTS, ASKING, WAIT numreplicas timeout
 *     (answered as a standalone master: cluster support disabled; WAIT
 *     with no replica at once, 0)
 *   inside the scripts: get set (NX PX px KEEPTTL) del exists incr mget type
 *     pexpire pttl time publish hset hget hdel hexists hlen hkeys hgetall
 *     sadd srem sismember smembers srandmember zadd (NX XX) zrem zcard
 *     zrange zrank zremrangebyscore
 * Also here, for the tests' own looks at a master (captured with the
 * library's commands) and for tools: PUBSUB CHANNELS | NUMSUB | NUMPAT,
 * PEXPIRETIME, EXPIRETIME, ECHO, HELLO 2, READONLY, QUIT, EXPIRE,
 * TTL, PERSIST, INCRBY, DECR, UNLINK, DBSIZE, FLUSHALL, KEYS, HVALS,
 * HINCRBY, HMGET, SCARD, ZSCORE, CLIENT ID | SETNAME | GETNAME, SCRIPT
 * EXISTS | FLUSH.  Anything else fails the run (sim_fail), among them
 * what only tests send behind the library's back (ROLE, SCAN, DUMP,
 * ZRANGEBYSCORE, RPUSH, DEBUG, CONFIG SET: record.sh leaves them out).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sim/master/internal.h"

static const sim_cmd table[] = {
    { "get", 2, 0, sim_cmd_get },
    { "set", -3, SIM_F_WRITE, sim_cmd_set },
    { "del", -2, SIM_F_WRITE, sim_cmd_del },
    { "unlink", -2, SIM_F_WRITE, sim_cmd_unlink },
    { "exists", -2, 0, sim_cmd_exists },
    { "incr", 2, SIM_F_WRITE, sim_cmd_incr },
    { "decr", 2, SIM_F_WRITE, sim_cmd_decr },
    { "incrby", 3, SIM_F_WRITE, sim_cmd_incrby },
    { "mget", -2, 0, sim_cmd_mget },
    { "type", 2, 0, sim_cmd_type },
    { "pexpire", -3, SIM_F_WRITE, sim_cmd_pexpire },
    { "expire", -3, SIM_F_WRITE, sim_cmd_expire },
    { "persist", 2, SIM_F_WRITE, sim_cmd_persist },
    { "pttl", 2, 0, sim_cmd_pttl },
    { "pexpiretime", 2, 0, sim_cmd_pexpiretime },
    { "expiretime", 2, 0, sim_cmd_expiretime },
    { "ttl", 2, 0, sim_cmd_ttl },
    { "dbsize", 1, 0, sim_cmd_dbsize },
    { "flushall", -1, SIM_F_WRITE, sim_cmd_flushall },
    { "keys", 2, 0, sim_cmd_keys },
    { "hset", -4, SIM_F_WRITE, sim_cmd_hset },
    { "hget", 3, 0, sim_cmd_hget },
    { "hmget", -3, 0, sim_cmd_hmget },
    { "hdel", -3, SIM_F_WRITE, sim_cmd_hdel },
    { "hexists", 3, 0, sim_cmd_hexists },
    { "hlen", 2, 0, sim_cmd_hlen },
    { "hkeys", 2, 0, sim_cmd_hkeys },
    { "hvals", 2, 0, sim_cmd_hvals },
    { "hgetall", 2, 0, sim_cmd_hgetall },
    { "hincrby", 4, SIM_F_WRITE, sim_cmd_hincrby },
    { "sadd", -3, SIM_F_WRITE, sim_cmd_sadd },
    { "srem", -3, SIM_F_WRITE, sim_cmd_srem },
    { "sismember", 3, 0, sim_cmd_sismember },
    { "smembers", 2, 0, sim_cmd_smembers },
    { "scard", 2, 0, sim_cmd_scard },
    { "srandmember", -2, 0, sim_cmd_srandmember },
    { "zadd", -4, SIM_F_WRITE, sim_cmd_zadd },
    { "zrem", -3, SIM_F_WRITE, sim_cmd_zrem },
    { "zcard", 2, 0, sim_cmd_zcard },
    { "zrange", -4, 0, sim_cmd_zrange },
    { "zrank", 3, 0, sim_cmd_zrank },
    { "zscore", 3, 0, sim_cmd_zscore },
    { "zremrangebyscore", 4, SIM_F_WRITE, sim_cmd_zremrangebyscore },
    { "ping", -1, 0, sim_cmd_ping },
    { "echo", 2, 0, sim_cmd_echo },
    { "time", 1, 0, sim_cmd_time },
    { "info", -1, 0, sim_cmd_info },
    { "config", -2, SIM_F_NOSCRIPT, sim_cmd_config },
    { "client", -2, SIM_F_NOSCRIPT, sim_cmd_client },
    { "auth", -2, SIM_F_NOSCRIPT, sim_cmd_auth },
    { "select", 2, 0, sim_cmd_select },
    { "hello", -1, SIM_F_NOSCRIPT, sim_cmd_hello },
    { "wait", 3, SIM_F_NOSCRIPT, sim_cmd_wait },
    { "cluster", -2, 0, sim_cmd_cluster },
    { "asking", 1, 0, sim_cmd_asking },
    { "readonly", 1, 0, sim_cmd_readonly },
    { "quit", -1, SIM_F_NOSCRIPT, sim_cmd_quit },
    { "subscribe", -2, SIM_F_NOSCRIPT, sim_cmd_subscribe },
    { "unsubscribe", -1, SIM_F_NOSCRIPT, sim_cmd_unsubscribe },
    { "publish", 3, 0, sim_cmd_publish },
    { "pubsub", -2, 0, sim_cmd_pubsub },
    { "eval", -3, SIM_F_NOSCRIPT, sim_cmd_eval },
    { "evalsha", -3, SIM_F_NOSCRIPT, sim_cmd_evalsha },
    { "script", -2, SIM_F_NOSCRIPT, sim_cmd_script },
};

/* Every command and every redis.call looks here: a table of 128 slots by
 * a hash of the lowercased name, built at the first call. */
static unsigned name_hash(const char *p, size_t len)
{
    unsigned h = (unsigned)len;
    for (size_t i = 0; i < len; i++)
        h = h * 31 + (unsigned char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]);
    return h & 127;
}

const sim_cmd *sim_cmd_find(const char *name, size_t len)
{
    static const sim_cmd *slot[128];
    static unsigned char lens[128];
    static int built;

    if (!built) {
        for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
            size_t n = strlen(table[i].name);
            unsigned h = name_hash(table[i].name, n);
            while (slot[h])
                h = (h + 1) & 127;
            slot[h] = &table[i];
            lens[h] = (unsigned char)n;
        }
        built = 1;
    }
    if (len > 32)
        return NULL;
    for (unsigned h = name_hash(name, len); slot[h]; h = (h + 1) & 127)
        if (lens[h] == len && strncasecmp(slot[h]->name, name, len) == 0)
            return slot[h];
    return NULL;
}

void sim_fail(sim_master *m, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(m->error, sizeof m->error, "%s: ", m->cfg.name ? m->cfg.name : "master");
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof m->error)
        vsnprintf(m->error + n, sizeof m->error - (size_t)n, fmt, ap);
    va_end(ap);
    m->fatal = 1;
}

static int subscribed_ok(const sim_cmd *c)
{
    return c->fn == sim_cmd_subscribe || c->fn == sim_cmd_unsubscribe || c->fn == sim_cmd_ping ||
           c->fn == sim_cmd_quit;
}

int sim_exec(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    const sim_cmd *c = sim_cmd_find(argv[0].p, argv[0].len);
    sim_conn *cn = m->cur;

    if (!c) {
        sim_fail(m, "unknown command '%.*s'%s", (int)(argv[0].len < 64 ? argv[0].len : 64),
                 argv[0].p, m->in_script ? " called from a script" : "");
        return -1;
    }
    if (m->in_script) {
        if (c->flags & SIM_F_NOSCRIPT)
            return sim_put_error(out, "ERR This Redis command is not allowed from script");
        if ((c->arity > 0 && argc != c->arity) || (c->arity < 0 && argc < -c->arity))
            return sim_put_error(out, "ERR Wrong number of args calling Redis command from script");
        return c->fn(m, argc, argv, out);
    }
    if (m->cfg.password && cn && !cn->authed && c->fn != sim_cmd_auth && c->fn != sim_cmd_hello &&
        c->fn != sim_cmd_quit)
        return sim_put_error(out, "NOAUTH Authentication required.");
    if ((c->arity > 0 && argc != c->arity) || (c->arity < 0 && argc < -c->arity))
        return sim_put_arity(out, &argv[0]);
    if (m->cluster) {
        int routed = sim_cluster_route(m, c, argc, argv, out);
        if (routed) {
            if (cn)
                cn->asking = 0;
            return routed < 0 ? -1 : 0;
        }
    }
    if (cn && cn->nchans && !subscribed_ok(c)) {
        return sim_put_errorf(out, "ERR Can't execute '%s': only (P|S)SUBSCRIBE / "
                                   "(P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
                              c->name);
    }
    int rc = c->fn(m, argc, argv, out);
    if (cn && c->fn != sim_cmd_asking)
        cn->asking = 0;
    return rc;
}

/* ---- helpers for the commands ---- */

int sim_eq(const sim_arg *a, const char *lower)
{
    size_t n = strlen(lower);
    return a->len == n && strncasecmp(a->p, lower, n) == 0;
}

int sim_arg_ll(const sim_arg *a, long long *v)
{
    char t[32];
    char *end;
    if (a->len == 0 || a->len >= sizeof t)
        return -1;
    memcpy(t, a->p, a->len);
    t[a->len] = '\0';
    /* Redis's string2ll: no spaces, no "+", no leading zeros */
    if (t[0] == ' ' || t[0] == '+' || (t[0] == '0' && a->len > 1) ||
        (t[0] == '-' && (a->len == 1 || t[1] == '0')))
        return -1;
    errno = 0;
    long long r = strtoll(t, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
    *v = r;
    return 0;
}

int sim_arg_double(const sim_arg *a, double *v)
{
    char t[64];
    char *end;
    if (a->len == 0 || a->len >= sizeof t)
        return -1;
    memcpy(t, a->p, a->len);
    t[a->len] = '\0';
    if (t[0] == ' ')
        return -1;
    double d = strtod(t, &end);
    if (*end != '\0' || d != d)
        return -1;
    *v = d;
    return 0;
}

int sim_flags(sim_arg *argv, int argc, int *i, int allowed)
{
    static const char *const names[] = { "nx", "xx", "gt", "lt", "ch", "incr" };
    int flags = 0;
    for (; *i < argc; (*i)++) {
        int f = 0;
        for (int b = 0; b < 6 && !f; b++)
            if ((allowed & (1 << b)) && sim_eq(&argv[*i], names[b]))
                f = 1 << b;
        if (!f)
            break;
        flags |= f;
    }
    return flags;
}

sim_key *sim_lookup(sim_master *m, const sim_arg *a)
{
    return sim_ks_find(&m->ks, a->p, a->len, m->now);
}

sim_key *sim_lookup_type(sim_master *m, const sim_arg *a, int type, int *wrong)
{
    sim_key *k = sim_lookup(m, a);
    *wrong = k && k->type != type;
    return *wrong ? NULL : k;
}

sim_key *sim_lookup_create(sim_master *m, const sim_arg *a, int type, int *wrong)
{
    sim_key *k = sim_lookup_type(m, a, type, wrong);
    if (!k && !*wrong)
        k = sim_ks_add(&m->ks, a->p, a->len, type);
    return k;
}

void sim_drop_if_empty(sim_master *m, sim_key *k)
{
    if (k && k->type != SIM_STRING && k->n == 0)
        sim_ks_del(&m->ks, k);
}

/* glob with * and ? only (enough for tests' KEYS) */
int sim_glob(const char *p, size_t pl, const char *s, size_t sl)
{
    if (pl == 0)
        return sl == 0;
    if (*p == '*') {
        for (size_t i = 0; i <= sl; i++)
            if (sim_glob(p + 1, pl - 1, s + i, sl - i))
                return 1;
        return 0;
    }
    if (sl == 0 || (*p != '?' && *p != *s))
        return 0;
    return sim_glob(p + 1, pl - 1, s + 1, sl - 1);
}
