/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* stub_master.c -- A STAND-IN for the simulated master (sim/master.h), to be
 * replaced by the real one (Redis 7's answers, the library's Lua scripts run
 * in embedded Lua).  It knows just what the harness's demo needs: the
 * handshake (AUTH, SELECT, PING, CLIENT INFO/ID/SETNAME/KILL, TIME, INFO,
 * CONFIG GET, SCRIPT LOAD), SET NX PX, GET, DEL, SUBSCRIBE, and EVAL(SHA)
 * of the plain release script only, answered by comparing the value.
 * Anything else is an error of the run (sim_master_error says which).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <openssl/evp.h>
#include "sim/master.h"

/* the library's plain release script (lock/scripts.c) */
extern const char redlock__lua_release[];

#define STUB_MAX_ARGS 16

typedef struct stub_key {
    char *key, *value;
    size_t klen, vlen;
    int64_t expire_ms;              /* master time; 0: none */
} stub_key;

typedef struct stub_conn {
    long long id;
    sim_buf in;
    int open;
    int authed;
} stub_conn;

struct sim_master {
    char name[32];
    char password[64];              /* "": none */
    char appendonly[8], policy[32];
    char run_id[41];
    uint64_t run_seed;
    int64_t started_ms;             /* -1 until the first command */
    int64_t uptime_base_s;          /* up this long before the run; 0 after a restart */
    stub_key *keys;
    size_t nkeys, capkeys;
    stub_conn *conns;
    size_t nconns;
    long long next_id;
    long long killed[8];
    size_t nkilled;
    char scripts[4][41];            /* SHAs loaded of the release script */
    char err[160];
};

static void new_run_id(sim_master *m)
{
    for (int i = 0; i < 40; i++) {
        uint64_t x = m->run_seed += 0x9e3779b97f4a7c15ULL;     /* splitmix64 */
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        m->run_id[i] = "0123456789abcdef"[(x ^ (x >> 31)) & 15];
    }
    m->run_id[40] = '\0';
}

sim_master *sim_master_new(const sim_master_config *cfg)
{
    sim_master *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    snprintf(m->name, sizeof m->name, "%s", cfg->name ? cfg->name : "m");
    snprintf(m->password, sizeof m->password, "%s", cfg->password ? cfg->password : "");
    snprintf(m->appendonly, sizeof m->appendonly, "%s", cfg->appendonly ? cfg->appendonly : "no");
    snprintf(m->policy, sizeof m->policy, "%s",
             cfg->maxmemory_policy ? cfg->maxmemory_policy : "noeviction");
    m->run_seed = cfg->run_id_seed;
    m->started_ms = -1;
    m->uptime_base_s = 100000;
    m->next_id = 1;
    new_run_id(m);
    return m;
}

static void drop_keys(sim_master *m)
{
    for (size_t i = 0; i < m->nkeys; i++) {
        free(m->keys[i].key);
        free(m->keys[i].value);
    }
    m->nkeys = 0;
}

void sim_master_free(sim_master *m)
{
    if (!m)
        return;
    drop_keys(m);
    free(m->keys);
    for (size_t i = 0; i < m->nconns; i++)
        sim_buf_free(&m->conns[i].in);
    free(m->conns);
    free(m);
}

long long sim_master_connect(sim_master *m)
{
    stub_conn *c = realloc(m->conns, (m->nconns + 1) * sizeof *c);
    if (!c)
        return -1;
    m->conns = c;
    c += m->nconns++;
    memset(c, 0, sizeof *c);
    c->id = m->next_id++;
    c->open = 1;
    return c->id;
}

static stub_conn *conn_of(sim_master *m, long long id)
{
    for (size_t i = 0; i < m->nconns; i++)
        if (m->conns[i].id == id && m->conns[i].open)
            return &m->conns[i];
    return NULL;
}

void sim_master_disconnect(sim_master *m, long long id)
{
    stub_conn *c = conn_of(m, id);
    if (c) {
        c->open = 0;
        sim_buf_free(&c->in);
    }
}

const char *sim_master_error(const sim_master *m)
{
    return m->err;
}

int sim_master_take_pushes(sim_master *m, long long conn, sim_buf *out)
{
    (void)m, (void)conn, (void)out;
    return 0;       /* the stub publishes nothing */
}

long long sim_master_take_killed(sim_master *m)
{
    if (!m->nkilled)
        return -1;
    long long id = m->killed[0];
    memmove(m->killed, m->killed + 1, --m->nkilled * sizeof m->killed[0]);
    return id;
}

void sim_master_restart(sim_master *m, int keep_data)
{
    if (!keep_data)
        drop_keys(m);
    for (size_t i = 0; i < m->nconns; i++)
        sim_master_disconnect(m, m->conns[i].id);
    m->started_ms = -1;     /* (the stub learns the time at the next command) */
    m->uptime_base_s = 0;
    new_run_id(m);
}

/* ---- the keyspace --------------------------------------------------------- */

static stub_key *lookup(sim_master *m, const char *k, size_t klen, int64_t now)
{
    for (size_t i = 0; i < m->nkeys; i++) {
        stub_key *e = &m->keys[i];
        if (e->klen != klen || memcmp(e->key, k, klen) != 0)
            continue;
        if (e->expire_ms && e->expire_ms <= now) {      /* expired: gone */
            free(e->key);
            free(e->value);
            *e = m->keys[--m->nkeys];
            return NULL;
        }
        return e;
    }
    return NULL;
}

static void del(sim_master *m, stub_key *e)
{
    free(e->key);
    free(e->value);
    *e = m->keys[--m->nkeys];
}

static int put(sim_master *m, const char *k, size_t klen, const char *v, size_t vlen, int64_t exp)
{
    stub_key *e;
    if (m->nkeys == m->capkeys) {
        size_t cap = m->capkeys ? 2 * m->capkeys : 8;
        if (!(e = realloc(m->keys, cap * sizeof *e)))
            return -1;
        m->keys = e;
        m->capkeys = cap;
    }
    e = &m->keys[m->nkeys];
    if (!(e->key = malloc(klen + 1)) || !(e->value = malloc(vlen + 1))) {
        free(e->key);
        return -1;
    }
    memcpy(e->key, k, klen);
    memcpy(e->value, v, vlen);
    e->klen = klen, e->vlen = vlen, e->expire_ms = exp;
    m->nkeys++;
    return 0;
}

size_t sim_master_dbsize(sim_master *m, int64_t now_ms)
{
    for (size_t i = m->nkeys; i-- > 0;)
        lookup(m, m->keys[i].key, m->keys[i].klen, now_ms);
    return m->nkeys;
}

int sim_master_key(sim_master *m, const char *key, size_t klen, int64_t now_ms,
                   sim_buf *value_out, int64_t *pttl_ms)
{
    stub_key *e = lookup(m, key, klen, now_ms);
    if (!e)
        return 0;
    if (value_out)
        sim_buf_add(value_out, e->value, e->vlen);
    if (pttl_ms)
        *pttl_ms = e->expire_ms ? e->expire_ms - now_ms : -1;
    return 1;
}

/* ---- replies ---------------------------------------------------------------- */

static void bulk(sim_buf *out, const char *p, size_t len)
{
    sim_buf_printf(out, "$%zu\r\n", len);
    sim_buf_add(out, p, len);
    sim_buf_add(out, "\r\n", 2);
}

static void sha1_hex(const char *p, size_t len, char out[41])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    EVP_Digest(p, len, md, &n, EVP_sha1(), NULL);
    for (unsigned i = 0; i < 20; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
}

static int fail(sim_master *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(sim_master *m, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(m->err, sizeof m->err, "%s: ", m->name);
    va_start(ap, fmt);
    vsnprintf(m->err + n, sizeof m->err - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

#define IS(i, s) (len[i] == sizeof s - 1 && strncasecmp(a[i], s, len[i]) == 0)

static int is_release(sim_master *m, const char *sha_or_body, size_t n, int eval)
{
    if (eval)
        return n == strlen(redlock__lua_release) && memcmp(sha_or_body, redlock__lua_release, n) == 0;
    for (int i = 0; i < 4; i++)
        if (n == 40 && memcmp(m->scripts[i], sha_or_body, 40) == 0)
            return 1;
    return 0;
}

static int command(sim_master *m, stub_conn *c, int argc, const char **a, const size_t *len,
                   int64_t now, sim_buf *out)
{
    if (IS(0, "AUTH")) {
        const char *pw = a[argc - 1];
        size_t pwlen = len[argc - 1];
        if (!m->password[0])
            return sim_buf_printf(out, "-ERR AUTH <password> called without any password "
                                       "configured for the default user.\r\n");
        if (argc < 2 || pwlen != strlen(m->password) || memcmp(pw, m->password, pwlen) != 0)
            return sim_buf_printf(out, "-WRONGPASS invalid username-password pair or user is "
                                       "disabled.\r\n");
        c->authed = 1;
        return sim_buf_add(out, "+OK\r\n", 5);
    }
    if (m->password[0] && !c->authed)
        return sim_buf_printf(out, "-NOAUTH Authentication required.\r\n");
    if (IS(0, "PING"))
        return sim_buf_add(out, "+PONG\r\n", 7);
    if (IS(0, "SELECT"))
        return sim_buf_add(out, "+OK\r\n", 5);
    if (IS(0, "CLIENT") && argc >= 2) {
        if (IS(1, "ID"))
            return sim_buf_printf(out, ":%lld\r\n", c->id);
        if (IS(1, "SETNAME"))
            return sim_buf_add(out, "+OK\r\n", 5);
        if (IS(1, "INFO")) {
            char s[128];
            int n = snprintf(s, sizeof s, "id=%lld addr=10.0.0.1:%lld fd=8 name= db=0\n", c->id,
                             40000 + c->id);
            bulk(out, s, (size_t)n);
            return 0;
        }
        if (IS(1, "KILL") && argc >= 4 && IS(2, "ID")) {
            long long id = strtoll(a[3], NULL, 10);
            stub_conn *k = conn_of(m, id);
            if (k && m->nkilled < 8) {
                m->killed[m->nkilled++] = id;
                sim_master_disconnect(m, id);
            }
            return sim_buf_printf(out, ":%d\r\n", k ? 1 : 0);
        }
    }
    if (IS(0, "TIME") && argc == 1) {
        char s[24], u[24];
        int ns = snprintf(s, sizeof s, "%lld", (long long)(now / 1000));
        int nu = snprintf(u, sizeof u, "%lld", (long long)(now % 1000) * 1000);
        sim_buf_add(out, "*2\r\n", 4);
        bulk(out, s, (size_t)ns);
        bulk(out, u, (size_t)nu);
        return 0;
    }
    if (IS(0, "INFO")) {
        char s[256];
        int n = snprintf(s, sizeof s,
                         "# Server\r\nredis_version:7.2.4\r\nrun_id:%s\r\nuptime_in_seconds:%lld\r\n"
                         "# Persistence\r\naof_enabled:%d\r\naof_rewrites:0\r\n"
                         "aof_rewrite_scheduled:0\r\n",
                         m->run_id, (long long)(m->uptime_base_s + (now - m->started_ms) / 1000),
                         strcmp(m->appendonly, "yes") == 0);
        bulk(out, s, (size_t)n);
        return 0;
    }
    if (IS(0, "CONFIG") && argc == 3 && IS(1, "GET")) {
        int aof = strcmp(m->appendonly, "yes") == 0;
        const char *v = IS(2, "maxmemory-policy")            ? m->policy
                        : IS(2, "appendonly")                ? m->appendonly
                        : IS(2, "appendfsync")               ? (aof ? "always" : "everysec")
                        : IS(2, "no-appendfsync-on-rewrite") ? "no"
                                                             : "";
        sim_buf_add(out, "*2\r\n", 4);
        bulk(out, a[2], len[2]);
        bulk(out, v, strlen(v));
        return 0;
    }
    if (IS(0, "SCRIPT") && argc == 3 && IS(1, "LOAD")) {
        char sha[41];
        sha1_hex(a[2], len[2], sha);
        if (is_release(m, a[2], len[2], 1))
            memcpy(m->scripts[0], sha, 41);
        bulk(out, sha, 40);
        return 0;
    }
    if (IS(0, "SET") && argc == 6 && IS(3, "NX") && IS(4, "PX")) {
        long long ttl = strtoll(a[5], NULL, 10);
        if (ttl <= 0)
            return sim_buf_add(out, "-ERR invalid expire time in 'set' command\r\n", 43);
        if (lookup(m, a[1], len[1], now))
            return sim_buf_add(out, "$-1\r\n", 5);
        if (put(m, a[1], len[1], a[2], len[2], now + ttl) != 0)
            return fail(m, "out of memory");
        return sim_buf_add(out, "+OK\r\n", 5);
    }
    if (IS(0, "GET") && argc == 2) {
        stub_key *e = lookup(m, a[1], len[1], now);
        if (!e)
            return sim_buf_add(out, "$-1\r\n", 5);
        bulk(out, e->value, e->vlen);
        return 0;
    }
    if (IS(0, "DEL") && argc == 2) {
        stub_key *e = lookup(m, a[1], len[1], now);
        if (e)
            del(m, e);
        return sim_buf_printf(out, ":%d\r\n", e ? 1 : 0);
    }
    if ((IS(0, "SUBSCRIBE") || IS(0, "UNSUBSCRIBE")) && argc == 2) {
        sim_buf_add(out, "*3\r\n", 4);
        bulk(out, a[0], len[0]);
        bulk(out, a[1], len[1]);
        return sim_buf_printf(out, ":%d\r\n", IS(0, "SUBSCRIBE") ? 1 : 0);
    }
    if ((IS(0, "EVALSHA") || IS(0, "EVAL")) && argc >= 3) {
        int eval = IS(0, "EVAL");
        if (!is_release(m, a[1], len[1], eval)) {
            if (!eval)
                return sim_buf_add(out, "-NOSCRIPT No matching script.\r\n", 31);
            return fail(m, "the stub runs only the plain release script");
        }
        if (eval)
            sha1_hex(a[1], len[1], m->scripts[0]);
        if (argc != 5 || !IS(2, "1"))
            return fail(m, "release: %d arguments", argc);
        stub_key *e = lookup(m, a[3], len[3], now);
        int hit = e && e->vlen == len[4] && memcmp(e->value, a[4], len[4]) == 0;
        if (hit)
            del(m, e);
        return sim_buf_printf(out, ":%d\r\n", hit);
    }
    return fail(m, "unknown command '%.*s' (%d arguments)", (int)len[0], a[0], argc);
}

/* One complete command at the start of p[0..n): its length, 0 if it is not
 * all there, -1 if malformed; its arguments point into p. */
static long parse(const char *p, size_t n, int *argc, const char **a, size_t *len)
{
    const char *q = p, *end = p + n, *nl;
    long k;

    if (!n)
        return 0;
    if (*q != '*')
        return -1;
    if (!(nl = memchr(q, '\n', (size_t)(end - q))))
        return 0;
    k = strtol(q + 1, NULL, 10);
    if (k < 1 || k > STUB_MAX_ARGS)
        return -1;
    q = nl + 1;
    for (long i = 0; i < k; i++) {
        long bl;
        if (q >= end || !(nl = memchr(q, '\n', (size_t)(end - q))))
            return 0;
        if (*q != '$' || (bl = strtol(q + 1, NULL, 10)) < 0)
            return -1;
        q = nl + 1;
        if (end - q < bl + 2)
            return 0;
        a[i] = q;
        len[i] = (size_t)bl;
        q += bl + 2;
    }
    *argc = (int)k;
    return (long)(q - p);
}

int sim_master_feed(sim_master *m, long long conn, const char *p, size_t len, int64_t now_ms,
                    sim_buf *out)
{
    stub_conn *c = conn_of(m, conn);
    size_t off = 0;

    if (!c)
        return 0;       /* killed: what it wrote is lost */
    if (m->started_ms < 0)
        m->started_ms = now_ms;
    if (sim_buf_add(&c->in, p, len) != 0)
        return fail(m, "out of memory");
    for (;;) {
        const char *a[STUB_MAX_ARGS];
        size_t alen[STUB_MAX_ARGS];
        int argc = 0;
        long used = parse(c->in.p + off, c->in.len - off, &argc, a, alen);
        if (used < 0)
            return fail(m, "protocol error");
        if (used == 0)
            break;
        if (command(m, c, argc, a, alen, now_ms, out) != 0)
            return -1;
        off += (size_t)used;
        if (!conn_of(m, conn))      /* it killed itself */
            return 0;
    }
    memmove(c->in.p, c->in.p + off, c->in.len - off);
    c->in.len -= off;
    return 0;
}
