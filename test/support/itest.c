/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* itest.c -- helpers of the integration and fault tests (no tests here); see itest.h. */
#include "itest.h"
#include "clusters.h"
#include "proxy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

void it_opts(redlock_options *o)
{
    redlock_options_init(o);
    o->node_timeout_ms = 100;
    o->connect_timeout_ms = 500;
    o->retry_count = 3;
    o->retry_delay_ms = 10;
    o->retry_jitter_ms = 5;
    o->reconnect_min_ms = 5;
    o->reconnect_max_ms = 50;
    /* Every test starts its masters afresh: with the restart guard on, no
     * OK vote would count for a ttl (test/fault/t_assume.c turns it on). */
    o->restart_guard_ms = 0;
}

void it_opts_retry(redlock_options *o, int count, int delay_ms, int jitter_ms)
{
    it_opts(o);
    o->retry_count = count;
    o->retry_delay_ms = delay_ms;
    o->retry_jitter_ms = jitter_ms;
}

rlt_servers *it_start(int n, const char *const *extra)
{
    char err[512];
    rlt_servers *s = rlt_servers_start(n, extra, err, sizeof err);
    CHECK_MSG(s != NULL, "rlt_servers_start(%d): %s", n, err);
    return s;
}

redlock_client *it_client_new(struct event_base *base, const char *const *addrs, size_t n,
                              const redlock_options *opts)
{
    redlock_options o;
    if (opts == NULL) {
        it_opts(&o);
        opts = &o;
    }
    redlock_client *c = NULL;
    char err[256] = "";
    int rc = redlock_client_new(&c, base, addrs, n, opts, err, sizeof err);
    CHECK_MSG(rc == 0 && c != NULL, "redlock_client_new: %d %s", rc, err);
    return c;
}

redlock_client *it_client_addrs(const char *const *addrs, size_t n,
                                const redlock_options *opts, size_t wait_min)
{
    redlock_client *c = it_client_new(NULL, addrs, n, opts);
    if (wait_min > 0) {
        int rc = redlock_client_wait_connected(c, wait_min, 5000);
        CHECK_MSG(rc == 0, "redlock_client_wait_connected(%zu): %d, %zu connected", wait_min,
                  rc, redlock_client_connected(c));
        CHECK_GE(redlock_client_connected(c), wait_min);
    }
    return c;
}

redlock_client *it_client(rlt_servers *s, const redlock_options *opts)
{
    size_t n = (size_t)rlt_servers_count(s);
    return it_client_addrs(rlt_servers_addrs(s), n, opts, n);
}

redlock_client *it_async_client(struct event_base *base, rlt_servers *s,
                                const redlock_options *opts)
{
    size_t n = (size_t)rlt_servers_count(s);
    redlock_client *c = it_client_new(base, rlt_servers_addrs(s), n, opts);
    CHECK_MSG(it_async_wait_connected(base, c, n, 5000) == 0, "%zu of %zu connected",
              redlock_client_connected(c), n);
    return c;
}

redlock_lock *it_lock(redlock_client *c, const void *res, size_t len)
{
    redlock_lock *l = NULL;
    int rc = redlock_lock_new(&l, c, res, len);
    CHECK_MSG(rc == 0 && l != NULL, "redlock_lock_new: %d", rc);
    return l;
}

const char *it_errstr(const redlock_lock *lock)
{
    if (lock == NULL)
        return "";
    const char *e = redlock_lock_errstr(lock);
    return e != NULL ? e : "(null)";
}

int it_has_value(rlt_servers *s, int i, const void *key, size_t klen,
                 const void *val, size_t vlen)
{
    redisReply *r = rlt_servers_command(s, i, "GET %b", key, klen);
    if (r == NULL)
        return -1;
    int res;
    if (r->type == REDIS_REPLY_NIL)
        res = 0;
    else if (r->type == REDIS_REPLY_STRING)
        res = (size_t)r->len == vlen && memcmp(r->str, val, vlen) == 0;
    else
        res = -1;
    freeReplyObject(r);
    return res;
}

int it_count_value(rlt_servers *s, const void *key, size_t klen, const void *val, size_t vlen)
{
    int n = 0;
    for (int i = 0; i < rlt_servers_count(s); i++) {
        if (!rlt_servers_running(s, i))
            continue;
        int h = it_has_value(s, i, key, klen, val, vlen);
        CHECK_MSG(h >= 0, "server %d (%s) did not answer GET", i, rlt_servers_addr(s, i));
        n += h;
    }
    return n;
}

int it_count_lock(rlt_servers *s, const void *key, size_t klen, const redlock_lock *lock)
{
    size_t vlen = 0;
    const char *val = redlock_lock_value(lock, &vlen);
    if (val == NULL)
        return -1;
    return it_count_value(s, key, klen, val, vlen);
}

void it_set(rlt_servers *s, int i, const char *key, const char *value)
{
    redisReply *r = rlt_servers_command(s, i, "SET %s %s", key, value);
    CHECK_MSG(r != NULL && r->type == REDIS_REPLY_STATUS, "SET %s on server %d", key, i);
    freeReplyObject(r);
}

void it_set_int(rlt_servers *s, int i, const char *key, long long value)
{
    char v[32];
    snprintf(v, sizeof v, "%lld", value);
    it_set(s, i, key, v);
}

void it_del(rlt_servers *s, int i, const char *key)
{
    redisReply *r = rlt_servers_command(s, i, "DEL %s", key);
    CHECK_MSG(r != NULL && r->type == REDIS_REPLY_INTEGER && r->integer == 1,
              "DEL %s on server %d deleted nothing", key, i);
    freeReplyObject(r);
}

void it_cmd_on(rlt_servers *s, int from, int to, int want, const char *cmd)
{
    CHECK_MSG(strchr(cmd, '%') == NULL, "it_cmd_on(\"%s\"): no conversions", cmd);
    for (int i = from; i < to; i++) {
        redisReply *r = rlt_servers_command(s, i, cmd);
        int ok = r != NULL && (want ? r->type == want : r->type != REDIS_REPLY_ERROR);
        CHECK_MSG(ok, "%s on server %d: %s", cmd, i,
                  r == NULL ? "no reply" : r->type == REDIS_REPLY_ERROR ? r->str : "another type");
        freeReplyObject(r);
    }
}

long long it_pttl(rlt_servers *s, int i, const void *key, size_t klen)
{
    redisReply *r = rlt_servers_command(s, i, "PTTL %b", key, klen);
    long long res = r != NULL && r->type == REDIS_REPLY_INTEGER ? r->integer : -3;
    freeReplyObject(r);
    return res;
}

void it_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

int it_wait_count(rlt_servers *s, const void *key, size_t klen, int want, int64_t timeout_ms)
{
    int64_t deadline = check_now_ms() + timeout_ms;
    for (;;) {
        int n = rlt_servers_count_key(s, key, klen);
        if (n == want || check_now_ms() >= deadline)
            return n;
        it_sleep_ms(2);
    }
}

int it_wait_lock_count(rlt_servers *s, const void *key, size_t klen,
                       const redlock_lock *lock, int want, int64_t timeout_ms)
{
    int64_t deadline = check_now_ms() + timeout_ms;
    for (;;) {
        int n = it_count_lock(s, key, klen, lock);
        if (n >= want || check_now_ms() >= deadline)
            return n;
        it_sleep_ms(2);
    }
}

struct it_timeout {
    struct event_base *base;
    int fired;
};

static void it_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct it_timeout *t = arg;
    t->fired = 1;
    event_base_loopbreak(t->base);
}

int it_dispatch(struct event_base *base, int64_t timeout_ms)
{
    struct it_timeout t = {base, 0};
    struct event *ev = evtimer_new(base, it_timeout_cb, &t);
    CHECK(ev != NULL);
    struct timeval tv = {(time_t)(timeout_ms / 1000), (suseconds_t)(timeout_ms % 1000) * 1000};
    CHECK_EQ(evtimer_add(ev, &tv), 0);
    CHECK_GE(event_base_dispatch(base), 0);
    event_free(ev);
    return t.fired;
}

struct it_connwait {
    struct event_base *base;
    redlock_client *c;
    size_t min;
    int64_t deadline;
};

static void it_connwait_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct it_connwait *w = arg;
    if (redlock_client_connected(w->c) >= w->min || check_now_ms() >= w->deadline)
        event_base_loopbreak(w->base);
}

int it_async_wait_connected(struct event_base *base, redlock_client *c, size_t min,
                            int64_t timeout_ms)
{
    if (redlock_client_connected(c) >= min)
        return 0;
    struct it_connwait w = {base, c, min, check_now_ms() + timeout_ms};
    struct event *ev = event_new(base, -1, EV_PERSIST, it_connwait_cb, &w);
    CHECK(ev != NULL);
    struct timeval tv = {0, 2000};
    CHECK_EQ(event_add(ev, &tv), 0);
    CHECK_GE(event_base_dispatch(base), 0);
    event_free(ev);
    return redlock_client_connected(c) >= min ? 0 : -1;
}

struct event_base *it_base(void)
{
    struct event_config *cfg = event_config_new();
    CHECK(cfg != NULL);
    event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
    struct event_base *base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    CHECK(base != NULL);
    return base;
}

void it_fix_start(struct it_fix *f, int n, const redlock_options *opts, int flags)
{
    f->flags = flags;
    f->nclients = f->nlocks = 0;
    f->base = NULL;
    f->c = NULL;
    f->lock = NULL;
    f->s = it_start(n, f->extra);
    if (flags & IT_ASYNC)
        f->base = it_base();
    if (flags & IT_NOCLIENT)
        return;
    f->c = f->base != NULL ? it_async_client(f->base, f->s, opts) : it_client(f->s, opts);
    if (f->key != NULL)
        f->lock = IT_LOCK(f->c, f->key);
}

redlock_client *it_fix_client(struct it_fix *f, const redlock_options *opts)
{
    CHECK_LT(f->nclients, IT_FIX_MAX);
    redlock_client *c = f->base != NULL ? it_async_client(f->base, f->s, opts)
                                        : it_client(f->s, opts);
    f->clients[f->nclients++] = c;
    return c;
}

redlock_lock *it_fix_lock(struct it_fix *f, redlock_client *c, const char *res)
{
    CHECK_LT(f->nlocks, IT_FIX_MAX);
    redlock_lock *l = IT_LOCK(c, res);
    f->locks[f->nlocks++] = l;
    return l;
}

redlock_client *it_fix_two(struct it_fix *f, int n, int flags, const redlock_options *opts_b,
                           const char *res, redlock_lock **a, redlock_lock **b)
{
    it_fix_start(f, n, NULL, flags);
    redlock_client *other = it_fix_client(f, opts_b);
    *a = it_fix_lock(f, f->c, res);
    *b = it_fix_lock(f, other, res);
    return other;
}

int it_refusals(const redlock_lock *l, size_t n, const char *why, int exact)
{
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        redlock_node_result r;
        CHECK_EQ(redlock_lock_node_result(l, i, &r), 0);
        if (r.vote != REDLOCK_VOTE_REFUSED)
            continue;
        CHECK_MSG(exact ? r.detail != NULL && strcmp(r.detail, why) == 0 : it_has(r.detail, why),
                  "node %zu refused saying \"%s\", not \"%s\"", i, r.detail, why);
        k++;
    }
    return k;
}

void it_fix_stop(struct it_fix *f)
{
    while (f->nlocks > 0)
        redlock_lock_free(f->locks[--f->nlocks]);
    redlock_lock_free(f->lock);
    while (f->nclients > 0)
        redlock_client_free(f->clients[--f->nclients]);
    redlock_client_free(f->c);
    if (f->base != NULL)
        event_base_free(f->base);
    rlt_servers_free(f->s);
    f->lock = NULL;
    f->c = NULL;
    f->base = NULL;
    f->s = NULL;
}

void it_op_cb(redlock_lock *l, int status, void *privdata)
{
    struct it_op *op = privdata;
    op->done++;
    op->status = status;
    op->validity = redlock_lock_validity(l);
    op->nodes_ok = redlock_lock_nodes_ok(l);
    op->at_ms = check_now_ms();
    event_base_loopbreak(op->base);
}

int it_run_until(struct event_base *base, const int *flag, int64_t timeout_ms)
{
    int64_t deadline = check_now_ms() + timeout_ms;
    while (!*flag && check_now_ms() < deadline)
        it_dispatch(base, deadline - check_now_ms());
    return *flag;
}

void it_op_wait(struct it_op *op, int64_t timeout_ms)
{
    it_run_until(op->base, &op->done, timeout_ms);
    CHECK_MSG(op->done == 1, "operation completed %d times within %lld ms", op->done,
              (long long)timeout_ms);
}

void it_run(struct event_base *base, int64_t ms)
{
    int64_t deadline = check_now_ms() + ms;
    while (check_now_ms() < deadline)
        it_dispatch(base, deadline - check_now_ms());
}

void it_wait_clock_samples(struct event_base *base, redlock_client *c, uint64_t want,
                           int64_t timeout_ms)
{
    int64_t deadline = check_now_ms() + timeout_ms;
    for (;;) {
        uint64_t least = UINT64_MAX;
        for (size_t i = 0; i < redlock_client_nodes(c); i++) {
            redlock_node_stats st;
            CHECK_EQ(redlock_client_node_stats(c, i, &st), 0);
            least = st.clock_samples < least ? st.clock_samples : least;
        }
        if (least >= want)
            return;
        CHECK_MSG(check_now_ms() < deadline, "only %llu clock samples after %lld ms",
                  (unsigned long long)least, (long long)timeout_ms);
        it_dispatch(base, 5);
    }
}

uint64_t it_node_oks(redlock_client *c, size_t i)
{
    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(c, i, &st), 0);
    return st.oks;
}

int it_run_example(const char *program, rlt_servers *s, char *out, size_t size)
{
    char cmd[1024];
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "%s", program);

    for (int i = 0; i < rlt_servers_count(s) && len < sizeof cmd; i++)
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, " %s", rlt_servers_addr(s, i));
    CHECK_LT(len, sizeof cmd);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    int rc = it_read_all(p, out, size);
    check_note("%s", out);
    return rc;
}

int it_read_all(FILE *p, char *out, size_t size)
{
    char drop[4096];
    size_t n = 0;
    out[0] = '\0';
    while (n < size - 1 && fgets(out + n, (int)(size - n), p))
        n += strlen(out + n);
    while (fread(drop, 1, sizeof drop, p) > 0)
        ;
    return pclose(p);
}

int it_shell(const char *cmd, char *out, size_t size)
{
    char full[4096];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    CHECK_LT(strlen(cmd), sizeof full - 8);
    FILE *p = popen(full, "r");
    CHECK_MSG(p != NULL, "popen: %s", strerror(errno));
    int st = it_read_all(p, out, size);
    check_note("%s\n%s", cmd, out);
    CHECK_MSG(st != -1 && WIFEXITED(st), "%s: did not exit normally", cmd);
    return WEXITSTATUS(st);
}

double it_json_num(const char *s, const char *key)
{
    char k[128];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = s ? strstr(s, k) : NULL;
    return p ? strtod(p + strlen(k), NULL) : -1;
}

void it_example_says(const char *program, rlt_servers *s, const char *const *phrases)
{
    char out[2048];
    CHECK_MSG(it_run_example(program, s, out, sizeof out) == 0, "%s failed", program);
    for (size_t i = 0; phrases[i] != NULL; i++)
        CHECK_MSG(it_has(out, phrases[i]), "%s did not say \"%s\"", program, phrases[i]);
}

void it_lost_cb(redlock_lock *l, int reason, void *privdata)
{
    struct it_lost *w = privdata;
    (void)l;
    w->n++;
    w->reason = reason;
    event_base_loopbreak(w->base);
}

int it_has(const char *haystack, const char *needle)
{
    return haystack != NULL && strstr(haystack, needle) != NULL;
}

/* A number of the command's line in an INFO commandstats reply r (freed
 * here) ("calls=", "rejected_calls="), 0 when the line or the field is not
 * there. */
static long long cmdstat_of(redisReply *r, const char *cmd, const char *what)
{
    char line[64], field[32];
    snprintf(line, sizeof line, "cmdstat_%s:", cmd);
    snprintf(field, sizeof field, "%s=", what);
    const char *p = strstr(r->str, line), *end = p ? strchr(p, '\n') : NULL, *f = NULL;
    if (p) {
        /* the field on that line: after the start of the line or a comma */
        for (f = strstr(p, field); f && (!end || f < end); f = strstr(f + 1, field))
            if (f[-1] == ':' || f[-1] == ',')
                break;
        if (f && end && f > end)
            f = NULL;
    }
    long long n = f ? strtoll(f + strlen(field), NULL, 10) : 0;
    freeReplyObject(r);
    return n;
}

static long long cmdstat(rlt_servers *s, int i, const char *cmd, const char *what)
{
    redisReply *r = rlt_servers_command(s, i, "INFO commandstats");
    CHECK_MSG(r != NULL && r->type == REDIS_REPLY_STRING, "INFO commandstats on server %d", i);
    return cmdstat_of(r, cmd, what);
}

long long it_calls(rlt_servers *s, int i, const char *cmd)
{
    return cmdstat(s, i, cmd, "calls");
}

long long it_wait_calls(rlt_servers *s, int i, const char *cmd, long long above,
                        int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    long long n;
    while ((n = it_calls(s, i, cmd)) <= above && check_now_ms() < until)
        it_sleep_ms(2);
    return n;
}

long long it_rejected(rlt_servers *s, int i, const char *cmd)
{
    return cmdstat(s, i, cmd, "rejected_calls");
}

size_t it_wait_nodes_ok(struct event_base *base, const redlock_lock *l, size_t want,
                        int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    while (redlock_lock_nodes_ok(l) != want && check_now_ms() < until)
        it_dispatch(base, 10);
    return redlock_lock_nodes_ok(l);
}

int it_wait_vote(struct event_base *base, const redlock_lock *l, size_t node, int want,
                 int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    redlock_node_result r;
    for (;;) {
        if (redlock_lock_node_result(l, node, &r) != 0)
            return -1;
        if (r.vote == want || check_now_ms() >= until)
            return r.vote;
        it_dispatch(base, 10);
    }
}

void it_proxies(rlt_servers *s, int n, struct rlp_thread **px, char (*addr)[32],
                const char **addrs)
{
    char err[256];

    for (int i = 0; i < n; i++) {
        px[i] = rlp_thread_start(0, "127.0.0.1", rlt_servers_port(s, i), err, sizeof err);
        CHECK_MSG(px[i] != NULL, "proxy: %s", err);
        snprintf(addr[i], 32, "127.0.0.1:%d", rlp_thread_port(px[i]));
        addrs[i] = addr[i];
    }
}

/* Server i's INFO uptime_in_seconds (-1 when it does not answer). */
long long it_uptime_s(rlt_servers *s, int i)
{
    redisReply *r = rlt_servers_command(s, i, "INFO server");
    long long up = -1;
    const char *p;
    if (r && r->type == REDIS_REPLY_STRING && (p = strstr(r->str, "uptime_in_seconds:")))
        up = atoll(p + 18);
    if (r)
        freeReplyObject(r);
    return up;
}

/* There is no event for a server's age: poll its uptime. */
void it_wait_uptime(rlt_servers *s, int i, long long want)
{
    int64_t t0 = check_now_ms();
    while (it_uptime_s(s, i) < want && check_now_ms() - t0 < 10000)
        it_sleep_ms(50);
    CHECK_GE(it_uptime_s(s, i), want);
}

/* ---- clusters and every master's keys ------------------------------------------ */

struct rlt_clusters *it_clusters(int votes, int shards, int replicas)
{
    char err[512];
    rlt_clusters *c = rlt_clusters_start(votes, shards, replicas, NULL, err, sizeof err);
    CHECK_MSG(c != NULL, "clusters %dx%dx%d: %s", votes, shards, replicas, err);
    return c;
}

long long it_cluster_errors(struct rlt_clusters *c, int vote, int node, const char *code)
{
    redisReply *r = rlt_clusters_command(c, vote, node, "INFO errorstats");
    char field[64];
    long long n = 0;
    const char *p;

    CHECK_MSG(r && r->type == REDIS_REPLY_STRING, "INFO errorstats on vote %d node %d", vote,
              node);
    snprintf(field, sizeof field, "errorstat_%s:count=", code);
    if ((p = strstr(r->str, field)) != NULL)
        n = atoll(p + strlen(field));
    freeReplyObject(r);
    return n;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* KEYS * of one master (r: its reply), sorted, as "label: k k | " at *off. */
static void keys_line(redisReply *r, const char *label, char *out, size_t size, size_t *off)
{
    const char *k[256];
    size_t n = 0;

    CHECK_MSG(r && r->type == REDIS_REPLY_ARRAY, "KEYS * on master %s", label);
    for (size_t j = 0; j < r->elements && n < 256; j++)
        k[n++] = r->element[j]->str;
    qsort(k, n, sizeof *k, by_str);
    *off += (size_t)snprintf(out + *off, *off < size ? size - *off : 0, "%s:", label);
    for (size_t j = 0; j < n; j++)
        *off += (size_t)snprintf(out + *off, *off < size ? size - *off : 0, " %s", k[j]);
    *off += (size_t)snprintf(out + *off, *off < size ? size - *off : 0, " | ");
    freeReplyObject(r);
}

long long it_cluster_calls(struct rlt_clusters *c, int vote, int node, const char *cmd)
{
    redisReply *r = rlt_clusters_command(c, vote, node, "INFO commandstats");
    CHECK_MSG(r != NULL && r->type == REDIS_REPLY_STRING, "INFO commandstats on vote %d node %d",
              vote, node);
    return cmdstat_of(r, cmd, "calls");
}

void it_keyspace(rlt_servers *s, struct rlt_clusters *c, char *out, size_t size)
{
    size_t off = 0;
    char label[32];

    out[0] = '\0';
    for (int i = 0; s && i < rlt_servers_count(s); i++) {
        if (!rlt_servers_running(s, i))
            continue;
        snprintf(label, sizeof label, "%d", i);
        keys_line(rlt_servers_command(s, i, "KEYS *"), label, out, size, &off);
    }
    for (int v = 0; c && v < rlt_clusters_votes(c); v++)
        for (int n = 0; n < rlt_clusters_nodes(c, v); n++) {
            if (rlt_clusters_role(c, v, n) != RLT_CLUSTER_MASTER)
                continue;
            snprintf(label, sizeof label, "c%d/%d", v, n);
            keys_line(rlt_clusters_command(c, v, n, "KEYS *"), label, out, size, &off);
        }
}

void it_wait_keyspace(struct event_base *base, rlt_servers *s, struct rlt_clusters *c,
                      const char *want, int64_t timeout_ms)
{
    char now[4096];
    int64_t end = check_now_ms() + timeout_ms;

    for (;;) {
        it_keyspace(s, c, now, sizeof now);
        if (strcmp(now, want) == 0 || check_now_ms() >= end)
            break;
        if (base)
            it_run(base, 5);
        else
            it_sleep_ms(5);
    }
    CHECK_MSG(strcmp(now, want) == 0, "keys left behind: \"%s\", before: \"%s\"", now, want);
}
