/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* net.c -- the transport seam: every connection the library dials is a
 * stream of sock.c (conn/dial.h's hook), in the process, behaving as a
 * socketpair.  The library holds one end, as it would a TCP socket; the
 * simulator holds the other and carries the bytes to and
 * from the simulated master through the event queue, each chunk after a
 * seeded delay and never before the previous chunk of its direction (no
 * reordering within a connection).  A close travels like the bytes: after
 * what was sent before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "floor/floor.h"
#include "conn/dial.h"
#include "sim/sim.h"

typedef struct sim_conn {
    size_t master;
    long long mconn;            /* the master's id for it */
    sim_sock *s;
    int sim_open;               /* our side is open (then so is the
                                 * library's, or its close is unseen) */
    int master_open;            /* the master has not seen it close */
    int64_t last_up, last_down; /* the latest delivery time each way */
} sim_conn;

/* bytes taken at once from a connection above which the library's socket
 * may have been full (far below a socketpair's buffer; the streams have
 * no bound, but the runs stay the socketpairs' runs) */
#define SIM_SOCKET_FULL 16384

static sim_master **masters;
static size_t nmasters;
static sim_conn *conns;
static size_t nconns, capconns;
static char failure[200];
static int64_t clock_ppm[SIM_MAX_MASTERS], clock_origin_ms[SIM_MAX_MASTERS];
static int64_t lost_keys_us[SIM_MAX_MASTERS];       /* the last restart without them */
static int64_t fault_us[SIM_MAX_MASTERS];           /* the end of the latest fault */
static int64_t down_until[SIM_MAX_MASTERS];         /* a dial is refused until then */

static int64_t delay_us(void)
{
    /* mostly a LAN's round trip; now and then a stall past node_timeout_ms */
    if (sim_rand(SIM_RNG_NET) % 100 < 3)
        return sim_rand_range(SIM_RNG_NET, 20000, 400000);
    return sim_rand_range(SIM_RNG_NET, 50, 1500);
}

static int64_t when(int64_t *last)
{
    int64_t t = sim_now_us + delay_us();
    if (t < *last)
        t = *last;
    return *last = t;
}

static void to_client(void *ctx, long long id, sim_buf *data);
static void fin_to_client(void *ctx, long long id, sim_buf *data);

static void to_master(void *ctx, long long id, sim_buf *data)
{
    sim_conn *c = &conns[id];
    sim_master *m = masters[c->master];
    sim_buf out = { NULL, 0, 0 };
    long long k;
    (void)ctx;

    if (!c->master_open)
        return;
    sim_trace_flow(c->master, id, '>', data->len);
    sim_trace_bytes(data->p, data->len);
    if (sim_master_feed(m, c->mconn, data->p, data->len, sim_net_master_ms(c->master), &out) != 0) {
        sim_trace("m%zu failed: %s", c->master, sim_master_error(m));
        if (!failure[0])
            snprintf(failure, sizeof failure, "%s", sim_master_error(m));
        sim_at(when(&c->last_down), fin_to_client, NULL, id, NULL);
    }
    if (out.len)
        sim_at(when(&c->last_down), to_client, NULL, id, &out);
    sim_buf_free(&out);
    while ((k = sim_master_take_killed(m)) >= 0)
        for (size_t i = 0; i < nconns; i++)
            if (conns[i].master == c->master && conns[i].mconn == k) {
                sim_trace("m%zu kills c%zu", c->master, i);
                conns[i].master_open = 0;   /* (what comes after is lost, as on a socket) */
                sim_at(when(&conns[i].last_down), fin_to_client, NULL, (long long)i, NULL);
            }
}

static void fin_to_master(void *ctx, long long id, sim_buf *data)
{
    (void)ctx, (void)data;
    if (!conns[id].master_open)
        return;
    sim_trace("m%zu c%lld > close", conns[id].master, id);
    conns[id].master_open = 0;
    sim_master_disconnect(masters[conns[id].master], conns[id].mconn);
}

static void to_client(void *ctx, long long id, sim_buf *data)
{
    sim_conn *c = &conns[id];
    (void)ctx;

    if (!c->sim_open)
        return;
    sim_trace_flow(c->master, id, '<', data->len);
    sim_trace_bytes(data->p, data->len);
    if (sim_sock_write(c->s, data->p, data->len) != 0 && !failure[0])
        snprintf(failure, sizeof failure, "c%lld: a short write to the library", id);
}

static void fin_to_client(void *ctx, long long id, sim_buf *data)
{
    sim_conn *c = &conns[id];
    (void)ctx, (void)data;

    if (!c->sim_open)
        return;
    sim_trace("m%zu c%lld < close", c->master, id);
    sim_sock_close(c->s);
    c->sim_open = 0;        /* its end is the library's to close (EOF) */
    c->master_open = 0;
    sim_master_disconnect(masters[c->master], c->mconn);
}

/* The dial hook: nodes are named m0, m1, ... (any port). */
static evutil_socket_t dial(const redlock__addr *a, char *err, size_t errlen)
{
    int fd;
    size_t i;
    sim_conn *c;

    if (!a->host || a->host[0] != 'm' || (i = strtoul(a->host + 1, NULL, 10)) >= nmasters) {
        snprintf(err, errlen, "sim: no master %s", a->host ? a->host : a->path);
        return -1;
    }
    if (sim_now_us < down_until[i]) {
        sim_trace("m%zu refuses a dial: down", i);
        snprintf(err, errlen, "connect m%zu: connection refused", i);
        return -1;
    }
    if (nconns == capconns) {
        size_t cap = capconns ? 2 * capconns : 32;
        if (!(c = realloc(conns, cap * sizeof *c))) {
            snprintf(err, errlen, "sim: out of memory");
            return -1;
        }
        conns = c, capconns = cap;
    }
    c = &conns[nconns];
    if (!(c->s = sim_sock_open((long long)nconns, &fd))) {
        snprintf(err, errlen, "sim: out of memory");
        return -1;
    }
    c->master = i;
    c->mconn = sim_master_connect(masters[i]);
    c->sim_open = c->master_open = 1;
    c->last_up = c->last_down = 0;
    sim_trace("m%zu c%zu dialed", i, nconns);
    nconns++;
    return fd;
}

void sim_net_init(struct event_base *base, sim_master **m, size_t n, int max_ppm)
{
    (void)base;
    masters = m;
    nmasters = n < SIM_MAX_MASTERS ? n : SIM_MAX_MASTERS;
    nconns = 0;
    failure[0] = '\0';
    redlock__dial_hook = dial;
    /* (they touch the masters and the streams, never the library) */
    sim_quiet(to_master);
    sim_quiet(fin_to_master);
    sim_quiet(to_client);
    sim_quiet(fin_to_client);
    for (size_t i = 0; i < nmasters; i++) {
        clock_ppm[i] = sim_rand_range(SIM_RNG_CLOCK, -max_ppm, max_ppm);
        clock_origin_ms[i] = sim_rand_range(SIM_RNG_CLOCK, 1000000, 2000000000);
        lost_keys_us[i] = INT64_MIN;
        fault_us[i] = INT64_MIN;
        down_until[i] = INT64_MIN;
    }
}

size_t sim_net_masters(void)
{
    return nmasters;
}

sim_master *sim_net_master(size_t i)
{
    return masters[i];
}

int64_t sim_net_true_us(size_t i, int64_t master_ms)
{
    /* (1e6 + ppm) master us pass in 1e6 true us */
    return master_ms * 1000 * 1000000 / (1000000 + clock_ppm[i]);
}

void sim_net_jump(size_t i, int64_t ms)
{
    sim_trace("m%zu's clock jumps %+lld ms", i, (long long)ms);
    fault_us[i] = sim_now_us;
    clock_origin_ms[i] += ms;
}

int64_t sim_net_fault_us(size_t i)
{
    return fault_us[i];
}

int64_t sim_net_lost_keys_us(size_t i)
{
    return lost_keys_us[i];
}

int64_t sim_net_master_ms(size_t i)
{
    int64_t us = sim_now_us - SIM_START_US;
    return clock_origin_ms[i] + (us + us / 1000000 * clock_ppm[i] +
                                 us % 1000000 * clock_ppm[i] / 1000000) / 1000;
}

/* What the library wrote (or its close) into the queue; whether it has
 * bytes it has not read yet (then it needs another turn). */
int sim_net_pump(void)
{
    int moved = sim_sock_unread_any();
    sim_sock **changed;
    size_t n = sim_sock_changed(&changed);

    for (size_t k = 0; k < n; k++) {
        size_t i = (size_t)sim_sock_id(changed[k]);
        sim_conn *c = &conns[i];
        sim_buf b = { NULL, 0, 0 };
        int end;

        if (!c->sim_open || c->s != changed[k])
            continue;
        end = sim_sock_take(c->s, &b);
        /* What was taken is due later (a delay is never 0): it needs no
         * other turn of the library's now, unless the library may have had
         * more than a socket would take. */
        if (b.len >= SIM_SOCKET_FULL)
            moved = 1;
        if (b.len)
            sim_at(when(&c->last_up), to_master, NULL, (long long)i, &b);
        if (end) {              /* the library closed its end */
            sim_sock_close(c->s);
            c->sim_open = 0;
            sim_at(when(&c->last_up), fin_to_master, NULL, (long long)i, NULL);
        }
    }
    return moved;
}

/* the open connection number `pick` (modulo their count), or NULL */
static sim_conn *open_conn(uint64_t pick)
{
    size_t open = 0;

    for (size_t i = 0; i < nconns; i++)
        open += conns[i].sim_open;
    if (open)
        for (size_t i = 0, k = (size_t)(pick % open); i < nconns; i++)
            if (conns[i].sim_open && k-- == 0)
                return &conns[i];
    return NULL;
}

static void cut(sim_conn *c)
{
    sim_sock_close(c->s);
    c->sim_open = 0;
    if (c->master_open)
        sim_master_disconnect(masters[c->master], c->mconn);
    c->master_open = 0;
}

void sim_net_reset(uint64_t pick)
{
    sim_conn *c = open_conn(pick);

    if (!c) {
        sim_trace("reset: no connection open");
        return;
    }
    sim_trace("m%zu c%zu reset", c->master, (size_t)(c - conns));
    fault_us[c->master] = sim_now_us;
    cut(c);
}

void sim_net_stall(uint64_t pick, int64_t us)
{
    sim_conn *c = open_conn(pick);

    if (!c) {
        sim_trace("stall: no connection open");
        return;
    }
    sim_trace("m%zu c%zu stalls %lld us", c->master, (size_t)(c - conns), (long long)us);
    if (fault_us[c->master] < sim_now_us + us)
        fault_us[c->master] = sim_now_us + us;
    if (c->last_up < sim_now_us + us)
        c->last_up = sim_now_us + us;
    if (c->last_down < sim_now_us + us)
        c->last_down = sim_now_us + us;
}

void sim_net_restart(size_t i, int keep_data)
{
    sim_trace("m%zu restarts, %s its keys", i, keep_data ? "keeping" : "losing");
    sim_master_restart(masters[i], keep_data);
    if (!keep_data)
        lost_keys_us[i] = sim_now_us;
    fault_us[i] = sim_now_us;
    for (size_t k = 0; k < nconns; k++)
        if (conns[k].master == i && conns[k].sim_open)
            cut(&conns[k]);
}

void sim_net_down(size_t i, int64_t us, int keep_data)
{
    sim_trace("m%zu down for %lld us", i, (long long)us);
    sim_net_restart(i, keep_data);
    down_until[i] = fault_us[i] = sim_now_us + us;
}

int sim_net_is_down(size_t i)
{
    return sim_now_us < down_until[i];
}

void sim_net_close_all(void)
{
    for (size_t i = 0; i < nconns; i++)
        if (conns[i].sim_open)
            sim_sock_close(conns[i].s);
    nconns = 0;
}

const char *sim_net_failure(void)
{
    return failure[0] ? failure : NULL;
}
