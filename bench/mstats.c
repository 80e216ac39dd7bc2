/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* mstats.c -- the masters' CPU and commands over a measured window (mstats.h),
 * read with blocking hiredis on connections of their own: the workload's
 * connections carry none of it, and what this file sends (one INFO
 * commandstats and one INFO cpu per reading, in that order) is taken out. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <hiredis/hiredis.h>

#include "mconn.h"
#include "mstats.h"

/* How often the last reading is retried until the masters are idle, and
 * how far apart (see settled) */
enum { SETTLE_TRIES = 200, SETTLE_MS = 10 };

typedef struct reading {
    double cpu, cpu_main;   /* used_cpu_sys + used_cpu_user, the process's and the
                             * main thread's (-1: not reported) */
    rlb_cmdstat *cmd;
    int ncmd;
} reading;

typedef struct conns {
    char **nodes;              /* the masters behind the votes (mconn.c) */
    redisContext **c;
    reading *first;
    size_t n;
} conns;

static void unavailable(rlb_mstats *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void unavailable(rlb_mstats *m, const char *fmt, ...)
{
    if (m->why[0])
        return;  /* the first reason says it */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof(m->why), fmt, ap);
    va_end(ap);
    m->available = 0;
}

/* A reply that is not the one wanted: why, into m.  Frees r. */
static int bad_reply(rlb_mstats *m, const char *node, const char *what, redisContext *c,
                     redisReply *r)
{
    char buf[300];
    const char *addr = rlb_addr_shown(node, buf, sizeof(buf));
    if (!r)
        unavailable(m, "%s: %s: %s", addr, what, c->errstr[0] ? c->errstr : "no reply");
    else if (r->type == REDIS_REPLY_ERROR)
        unavailable(m, "%s: %s refused: %s", addr, what, r->str);
    else
        unavailable(m, "%s: %s: unexpected reply type %d", addr, what, r->type);
    if (r)
        freeReplyObject(r);
    return -1;
}

/* The reply to one of the INFOs sent (send_reading), or NULL after saying why. */
static redisReply *info(rlb_mstats *m, redisContext *c, const char *node, const char *section)
{
    void *v = NULL;
    redisReply *r = redisGetReply(c, &v) == REDIS_OK ? v : NULL;
    if (!r || r->type != REDIS_REPLY_STRING) {
        char what[40];
        snprintf(what, sizeof(what), "INFO %s", section);
        bad_reply(m, node, what, c, r);
        return NULL;
    }
    return r;
}

/* Both INFOs of a reading written to the master, the replies left to take(). */
static int send_reading(rlb_mstats *m, redisContext *c, const char *node)
{
    int done = 0;
    if (redisAppendCommand(c, "INFO commandstats") != REDIS_OK ||
        redisAppendCommand(c, "INFO cpu") != REDIS_OK)
        return bad_reply(m, node, "INFO", c, NULL);
    while (!done)
        if (redisBufferWrite(c, &done) != REDIS_OK)
            return bad_reply(m, node, "INFO", c, NULL);
    return 0;
}

/* The number after "name:" at the start of a line of text, or -1. */
static double field(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p += len)
        if ((p == text || p[-1] == '\n') && p[len] == ':')
            return strtod(p + len + 1, NULL);
    return -1;
}

/* "cmdstat_NAME:calls=N,usec=U,..." lines into s->cmd. */
static int parse_cmdstats(reading *s, const char *text)
{
    int cap = 0;
    for (const char *p = text; (p = strstr(p, "cmdstat_")) != NULL; p++)
        cap++;
    s->cmd = calloc((size_t)cap + 1, sizeof(*s->cmd));
    if (!s->cmd)
        return -1;
    for (const char *p = text; (p = strstr(p, "cmdstat_")) != NULL && s->ncmd < cap;) {
        p += strlen("cmdstat_");
        size_t len = strcspn(p, ":\r\n");
        const char *calls = strstr(p, ":calls="), *usec = strstr(p, ",usec=");
        const char *eol = p + strcspn(p, "\r\n");
        if (p[len] != ':' || len >= sizeof(s->cmd->name) || !calls || calls > eol || !usec ||
            usec > eol)
            continue;
        rlb_cmdstat *e = &s->cmd[s->ncmd++];
        memcpy(e->name, p, len);
        e->calls = strtoull(calls + strlen(":calls="), NULL, 10);
        e->usec = strtoull(usec + strlen(",usec="), NULL, 10);
    }
    return 0;
}

static int take(rlb_mstats *m, redisContext *c, const char *node, reading *s)
{
    redisReply *r = info(m, c, node, "commandstats");
    if (!r)
        return -1;
    int rc = parse_cmdstats(s, r->str);
    freeReplyObject(r);
    if (rc != 0) {
        unavailable(m, "out of memory");
        return -1;
    }
    if (!(r = info(m, c, node, "cpu")))
        return -1;
    double sys = field(r->str, "used_cpu_sys"), user = field(r->str, "used_cpu_user");
    double msys = field(r->str, "used_cpu_sys_main_thread");
    double muser = field(r->str, "used_cpu_user_main_thread");
    freeReplyObject(r);
    if (sys < 0 || user < 0) {
        char buf[300];
        unavailable(m, "%s: INFO cpu has no used_cpu_sys/used_cpu_user", rlb_addr_shown(node, buf, sizeof(buf)));
        return -1;
    }
    s->cpu = sys + user;
    s->cpu_main = msys >= 0 && muser >= 0 ? msys + muser : -1;
    return 0;
}

static void free_reading(reading *s)
{
    free(s->cmd);
    memset(s, 0, sizeof(*s));
}

static void close_all(rlb_mstats *m)
{
    conns *cs = m->priv;
    if (!cs)
        return;
    for (size_t i = 0; i < cs->n && cs->c && cs->first; i++) {
        if (cs->c[i])
            redisFree(cs->c[i]);
        free_reading(&cs->first[i]);
    }
    free(cs->c);
    free(cs->first);
    rlb_masters_free(cs->nodes, (int)cs->n);
    free(cs);
    m->priv = NULL;
}

/* A reading of every master: the INFOs sent to all, then their replies
 * read, so that the readings are as close together as the masters answer
 * (m->why says what failed). */
static void take_all(rlb_mstats *m, conns *cs, reading *into)
{
    for (size_t i = 0; i < cs->n && !m->why[0]; i++)
        send_reading(m, cs->c[i], cs->nodes[i]);
    for (size_t i = 0; i < cs->n && !m->why[0]; i++)
        take(m, cs->c[i], cs->nodes[i], &into[i]);
}

/* The masters behind the votes into cs->nodes: a cluster vote's every
 * master, whose CPU is all the vote's.  0, or -1 after saying why. */
static int expand(rlb_mstats *m, conns *cs, const char *const *nodes, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char **v = NULL, why[300] = "";
        int k = rlb_vote_masters(nodes[i], &v, why, sizeof(why));
        if (k < 0) {
            unavailable(m, "%s", why);
            return -1;
        }
        char **grown = realloc(cs->nodes, (cs->n + (size_t)k) * sizeof(*grown));
        if (!grown) {
            rlb_masters_free(v, k);
            unavailable(m, "out of memory");
            return -1;
        }
        cs->nodes = grown;
        memcpy(cs->nodes + cs->n, v, (size_t)k * sizeof(*v));
        cs->n += (size_t)k;
        free(v);   /* the strings are cs->nodes' now */
        m->cluster_votes += strncasecmp(nodes[i], "redis-cluster://", 16) == 0;
    }
    return 0;
}

void rlb_mstats_begin(rlb_mstats *m, const char *const *nodes, size_t n)
{
    memset(m, 0, sizeof(*m));
    m->votes = n;
    conns *cs = calloc(1, sizeof(*cs));
    m->priv = cs;
    if (!cs) {
        unavailable(m, "out of memory");
        return;
    }
    if (expand(m, cs, nodes, n) != 0) {
        close_all(m);
        return;
    }
    m->nodes = cs->n;
    cs->c = calloc(cs->n, sizeof(*cs->c));
    cs->first = calloc(cs->n, sizeof(*cs->first));
    if (!cs->c || !cs->first) {
        unavailable(m, "out of memory");
        close_all(m);
        return;
    }
    char why[300];
    for (size_t i = 0; i < cs->n; i++)
        if (!(cs->c[i] = rlb_mconn_open(cs->nodes[i], why, sizeof(why)))) {
            unavailable(m, "%s", why);
            break;
        }
    take_all(m, cs, cs->first);
    if (m->why[0])
        close_all(m);
}

static rlb_cmdstat *find(rlb_cmdstat *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

/* Add one master's second reading less its first into m; own_info: the
 * INFO calls of ours that the second counts. */
static int add_delta(rlb_mstats *m, const char *node, const reading *a, const reading *b,
                     int main_thread, uint64_t own_info)
{
    char buf[300];
    const char *addr = rlb_addr_shown(node, buf, sizeof(buf));
    double cpu = main_thread ? b->cpu_main - a->cpu_main : b->cpu - a->cpu;
    if (cpu < 0) {
        unavailable(m, "%s: its counters went back during the window (restarted?)", addr);
        return -1;
    }
    m->cpu_s += cpu;
    for (int i = 0; i < b->ncmd; i++) {
        const rlb_cmdstat *e = &b->cmd[i], *f = find(a->cmd, a->ncmd, e->name);
        uint64_t calls0 = f ? f->calls : 0, usec0 = f ? f->usec : 0;
        if (e->calls < calls0 || e->usec < usec0) {
            unavailable(m, "%s: its counters went back during the window (restarted?)", addr);
            return -1;
        }
        uint64_t calls = e->calls - calls0, usec = e->usec - usec0;
        if (strcmp(e->name, "info") == 0 && calls >= own_info) {
            /* ours: their share of the time too (INFO's calls cost alike) */
            usec -= calls ? usec * own_info / calls : 0;
            calls -= own_info;
        }
        if (calls == 0)
            continue;
        rlb_cmdstat *t = find(m->cmd, m->ncmd, e->name);
        if (!t) {
            rlb_cmdstat *grown = realloc(m->cmd, (size_t)(m->ncmd + 1) * sizeof(*m->cmd));
            if (!grown) {
                unavailable(m, "out of memory");
                return -1;
            }
            m->cmd = grown;
            t = &m->cmd[m->ncmd++];
            memset(t, 0, sizeof(*t));
            memcpy(t->name, e->name, sizeof(t->name));
        }
        t->calls += calls;
        t->usec += usec;
        m->calls += calls;
    }
    return 0;
}

static int busiest_first(const void *x, const void *y)
{
    const rlb_cmdstat *a = x, *b = y;
    return a->calls != b->calls ? (a->calls < b->calls) - (a->calls > b->calls)
                                : strcmp(a->name, b->name);
}

/* The commands of a reading but INFO */
static uint64_t work(const reading *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->ncmd; i++)
        if (strcmp(s->cmd[i].name, "info") != 0)
            n += s->cmd[i].calls;
    return n;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* The last reading, once the masters are idle: the clients do not wait for
 * a master slower than the quorum, whose socket still holds requests of the
 * window when they stop; its work on them belongs to the window.  Readings
 * SETTLE_MS apart until two in a row agree.  How many were taken. */
static int settled(rlb_mstats *m, conns *cs, reading *into)
{
    reading *prev = calloc(cs->n, sizeof(*prev));
    if (!prev) {
        unavailable(m, "out of memory");
        return 0;
    }
    int taken = 0, idle = 0;
    for (; taken < SETTLE_TRIES && !idle && !m->why[0]; taken++) {
        if (taken) {
            sleep_ms(SETTLE_MS);
            for (size_t i = 0; i < cs->n; i++) {
                free_reading(&prev[i]);
                prev[i] = into[i];
                memset(&into[i], 0, sizeof(into[i]));
            }
        }
        take_all(m, cs, into);
        idle = taken > 0;
        for (size_t i = 0; i < cs->n && idle && !m->why[0]; i++)
            idle = work(&into[i]) == work(&prev[i]);
    }
    for (size_t i = 0; i < cs->n; i++)
        free_reading(&prev[i]);
    free(prev);
    return taken;
}

void rlb_mstats_end(rlb_mstats *m)
{
    conns *cs = m->priv;
    if (!cs)
        return;  /* not available: begin said why */
    reading *second = calloc(cs->n, sizeof(*second));
    if (!second)
        unavailable(m, "out of memory");
    /* each reading sends INFO commandstats, then INFO cpu: the last counts
     * those of the others (its own commandstats is not counted yet) */
    uint64_t own_info = second ? 2 * (uint64_t)settled(m, cs, second) : 0;
    int main_thread = 1;
    for (size_t i = 0; second && i < cs->n && !m->why[0]; i++)
        main_thread &= cs->first[i].cpu_main >= 0 && second[i].cpu_main >= 0;
    for (size_t i = 0; second && i < cs->n && !m->why[0]; i++)
        add_delta(m, cs->nodes[i], &cs->first[i], &second[i], main_thread, own_info);
    if (!m->why[0]) {
        m->available = 1;
        m->main_thread = main_thread;
        if (m->ncmd > 1)
            qsort(m->cmd, (size_t)m->ncmd, sizeof(*m->cmd), busiest_first);
    }
    for (size_t i = 0; second && i < cs->n; i++)
        free_reading(&second[i]);
    free(second);
    close_all(m);
}

void rlb_mstats_free(rlb_mstats *m)
{
    close_all(m);
    free(m->cmd);
    memset(m, 0, sizeof(*m));
}
