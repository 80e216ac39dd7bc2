/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* master.c -- master.h: the master's life (new, restart, free), its
 * connections, and feeding them bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

static void draw_id(sim_master *m, char out[41])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 40; i++) {
        m->rng ^= m->rng << 13;
        m->rng ^= m->rng >> 7;
        m->rng ^= m->rng << 17;
        out[i] = hex[(m->rng >> 20) & 15];
    }
    out[40] = '\0';
}

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

sim_master *sim_master_new(const sim_master_config *cfg)
{
    sim_master *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->cfg = *cfg;
    const char **field[6] = { &m->cfg.name, &m->cfg.password, &m->cfg.appendonly, &m->cfg.appendfsync,
                              &m->cfg.maxmemory_policy, &m->cfg.save };
    for (int i = 0; i < 6; i++) {
        m->cfg_strings[i] = dup_or_null(*field[i]);
        *field[i] = m->cfg_strings[i];
    }
    m->rng = cfg->run_id_seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (!m->rng)
        m->rng = 1;
    draw_id(m, m->run_id);
    draw_id(m, m->replid);
    m->next_id = 1;
    m->error[0] = '\0';
    if (sim_ks_init(&m->ks) || sim_lua_init(m)) {
        sim_master_free(m);
        return NULL;
    }
    return m;
}

static void conn_free(sim_conn *c)
{
    sim_req_free(&c->req);
    sim_buf_free(&c->pushes);
    sim_conn_unsubscribe_all(c);
    sim_str_free(&c->name);
    free(c);
}

static long conn_index(const sim_master *m, long long id)
{
    for (size_t i = 0; i < m->nconns; i++)
        if (m->conns[i]->id == id)
            return (long)i;
    return -1;
}

static void drop_conns(sim_master *m)
{
    for (size_t i = 0; i < m->nconns; i++)
        conn_free(m->conns[i]);
    m->nconns = 0;
}

void sim_master_free(sim_master *m)
{
    if (!m)
        return;
    drop_conns(m);
    free(m->conns);
    free(m->killed);
    sim_lua_free(m);
    sim_ks_free(&m->ks);
    sim_buf_free(&m->scratch);
    sim_buf_free(&m->argbuf);
    for (int i = 0; i < 6; i++)
        free(m->cfg_strings[i]);
    free(m);
}

long long sim_master_connect(sim_master *m)
{
    if (m->nconns == m->capconns) {
        size_t cap = m->capconns ? 2 * m->capconns : 8;
        sim_conn **n = realloc(m->conns, cap * sizeof *n);
        if (!n)
            return -1;
        m->conns = n;
        m->capconns = cap;
    }
    sim_conn *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->id = m->next_id++;
    c->authed = m->cfg.password == NULL;
    m->conns[m->nconns++] = c;
    return c->id;
}

void sim_master_disconnect(sim_master *m, long long conn)
{
    long i = conn_index(m, conn);
    if (i < 0)
        return;
    conn_free(m->conns[i]);
    memmove(&m->conns[i], &m->conns[i + 1], (m->nconns - (size_t)i - 1) * sizeof *m->conns);
    m->nconns--;
}

static void queue_killed(sim_master *m, long long id)
{
    if (m->nkilled == m->capkilled) {
        size_t cap = m->capkilled ? 2 * m->capkilled : 8;
        long long *n = realloc(m->killed, cap * sizeof *n);
        if (!n)
            return;
        m->killed = n;
        m->capkilled = cap;
    }
    m->killed[m->nkilled++] = id;
}

void sim_master_disconnect_killed(sim_master *m, long long id)
{
    long i = conn_index(m, id);
    if (i < 0)
        return;
    if (m->conns[i] == m->cur) {        /* closed once its reply is out */
        m->cur->quit = 1;
        return;
    }
    /* the order of conns is kept: CLIENT KILL walks it */
    conn_free(m->conns[i]);
    memmove(&m->conns[i], &m->conns[i + 1], (m->nconns - (size_t)i - 1) * sizeof *m->conns);
    m->nconns--;
    queue_killed(m, id);
}

long long sim_master_take_killed(sim_master *m)
{
    if (m->nkilled == 0)
        return -1;
    long long id = m->killed[0];
    memmove(m->killed, m->killed + 1, (m->nkilled - 1) * sizeof *m->killed);
    m->nkilled--;
    return id;
}

const char *sim_master_error(const sim_master *m)
{
    return m->error;
}

int sim_master_feed(sim_master *m, long long conn, const char *p, size_t len, int64_t now_ms,
                    sim_buf *out)
{
    long i = conn_index(m, conn);
    if (i < 0) {
        snprintf(m->error, sizeof m->error, "%s: no connection %lld", m->cfg.name ? m->cfg.name : "master",
                 conn);
        return -1;
    }
    sim_conn *c = m->conns[i];
    m->fatal = 0;           /* each feed tells its own failure */
    m->error[0] = '\0';
    m->now = now_ms;        /* it may step back: keys expire by it */
    if (!m->started) {      /* the first bytes since the start: uptime counts from here */
        m->start = now_ms;
        m->started = 1;
    }
    if (sim_buf_put(&c->req.in, p, len))
        return -1;
    /* messages published to it before these commands go out before their
     * replies, as Redis writes them (the harness need not drain first) */
    if (c->npushes && sim_master_take_pushes(m, conn, out) < 0)
        return -1;
    int rc = 0;
    const char *why = NULL;
    while (!c->quit) {
        int got = sim_req_next(&c->req, &why);
        if (got == 0)
            break;
        if (got < 0) {
            sim_put_errorf(out, "ERR %s", why ? why : "Protocol error");
            snprintf(m->error, sizeof m->error, "%s: %s", m->cfg.name ? m->cfg.name : "master",
                     why ? why : "protocol error");
            rc = -1;
            break;
        }
        if (c->req.argc == 0)
            continue;
        m->cur = c;
        int e = sim_exec(m, c->req.argc, c->req.argv, out);
        m->cur = NULL;
        if (e != 0 || m->fatal) {
            rc = -1;
            break;
        }
    }
    sim_req_compact(&c->req);
    if (c->quit) {
        long long id = c->id;
        sim_master_disconnect(m, id);
        queue_killed(m, id);
    }
    return rc;
}

int sim_master_take_pushes(sim_master *m, long long conn, sim_buf *out)
{
    long i = conn_index(m, conn);
    if (i < 0)
        return 0;
    sim_conn *c = m->conns[i];
    int n = c->npushes;
    if (n && sim_buf_put(out, c->pushes.p, c->pushes.len))
        return -1;
    c->pushes.len = 0;
    c->npushes = 0;
    return n;
}

void sim_master_restart_at(sim_master *m, int keep_data, int64_t now_ms)
{
    sim_master_restart(m, keep_data);
    m->now = m->start = now_ms;
    m->started = 1;
}

void sim_master_restart(sim_master *m, int keep_data)
{
    drop_conns(m);
    sim_scripts_flush(m);
    if (!keep_data)
        sim_ks_clear(&m->ks);
    draw_id(m, m->run_id);
    draw_id(m, m->replid);
    if (m->cluster)
        sim_cluster_restarted(m);
    m->started = 0;
    m->dirty = 0;
}

size_t sim_master_dbsize(sim_master *m, int64_t now_ms)
{
    return sim_ks_purge(&m->ks, now_ms);
}

int sim_master_key(sim_master *m, const char *key, size_t klen, int64_t now_ms, sim_buf *value_out,
                   int64_t *pttl_ms)
{
    sim_key *k = sim_ks_find(&m->ks, key, klen, now_ms);
    if (!k)
        return 0;
    static const char *const name[] = { "none", "string", "hash", "set", "zset" };
    if (value_out) {
        value_out->len = 0;
        if (k->type == SIM_STRING)
            sim_buf_put(value_out, k->s.p, k->s.len);
        else
            sim_buf_put(value_out, name[k->type], strlen(name[k->type]));
    }
    if (pttl_ms)
        *pttl_ms = k->expire_at < 0 ? -1 : k->expire_at - now_ms;
    return 1;
}

int sim_master_member(sim_master *m, const char *key, size_t klen, const char *member,
                      size_t mlen, int64_t now_ms)
{
    sim_key *k = sim_ks_find(&m->ks, key, klen, now_ms);
    const sim_str *it;
    size_t step;

    if (!k || (k->type != SIM_HASH && k->type != SIM_SET))
        return 0;
    it = k->items;
    step = k->type == SIM_HASH ? 2 : 1;     /* a hash's items: field, value */
    for (size_t i = 0; i < k->n; i++)
        if (it[step * i].len == mlen && memcmp(it[step * i].p, member, mlen) == 0)
            return 1;
    return 0;
}

int sim_master_each_key(sim_master *m, int64_t now_ms,
                        int (*fn)(void *ctx, const char *key, size_t klen), void *ctx)
{
    sim_ks_purge(&m->ks, now_ms);
    for (size_t b = 0; b < m->ks.nbucket; b++)
        for (sim_key *k = m->ks.bucket[b]; k; k = k->next) {
            int rc = fn(ctx, k->name.p, k->name.len);
            if (rc)
                return rc;
        }
    return 0;
}
