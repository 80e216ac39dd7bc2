/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* lib_client.c -- a client of redlock-bench's library workloads: its own
 * redlock_client and connections (TLS options included) on its thread's
 * event_base, which it may share with other clients (--threads); the loop
 * that runs a thread's clients and starts their slots (lib_work.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib_work.h"

/* ---- the thread's loop --------------------------------------------------------- */

static void on_connect_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    bench_thread *t = arg;
    lthread *lt = t->impl;
    if (redlock_client_connected(lt->cli) >= redlock_client_nodes(lt->cli) ||
        rlb_now_ns() >= lt->deadline_ns)
        event_base_loopbreak(t->base);
}

static void on_run_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    bench_thread *t = arg;  /* the leader: t[0] .. t[ngroup - 1] are its thread's */
    bench_shared *sh = t->sh;
    if (!atomic_load(&sh->stop))
        return;
    /* idle slots of the open loop wait for nothing more */
    for (int i = 0; i < t->ngroup; i++) {
        lthread *lt = t[i].impl;
        while (lt->nidle > 0)
            lib_slot_finish(lt->idle[--lt->nidle]);
    }
    /* Operations still in flight get a grace period (a few node timeouts
     * plus the retry policy) before the loop is abandoned. */
    int64_t grace = 5000;
    const bench_cfg *cfg = sh->cfg;
    if (cfg->workload == WL_CONTEND) {
        int64_t rc = cfg->retry_count >= 0 ? cfg->retry_count : 10;
        int64_t rd = (cfg->retry_delay_ms >= 0 ? cfg->retry_delay_ms : 200) +
                     (cfg->retry_jitter_ms >= 0 ? cfg->retry_jitter_ms : 100);
        grace += (rc + 1) * rd + cfg->hold_ms;
    }
    if (t->grp_active == 0 || rlb_now_ns() > rlb_stop_at(sh) + grace * 1000000)
        event_base_loopbreak(t->base);
}

/* ---- --metrics ------------------------------------------------------------------ */

static char *metrics_text;      /* written by client 0's thread, read once joined */

static void keep_metrics(redlock_client *cli)
{
    int64_t n = redlock_client_metrics(cli, NULL, 0);
    char *s = n > 0 ? malloc((size_t)n + 1) : NULL;

    if (s && redlock_client_metrics(cli, s, (size_t)n + 1) == n) {
        free(metrics_text);
        metrics_text = s;
    } else {
        free(s);
    }
}

const char *rlb_metrics_text(void)
{
    return metrics_text;
}

int rlb_write_metrics(const bench_cfg *cfg)
{
    FILE *f = stdout;

    if (!metrics_text) {
        fprintf(stderr, "redlock-bench: no metrics: no library client ran\n");
        return 1;
    }
    if (cfg->metrics_path && !(f = fopen(cfg->metrics_path, "w"))) {
        fprintf(stderr, "redlock-bench: %s: %s\n", cfg->metrics_path, strerror(errno));
        return 1;
    }
    fputs(metrics_text, f);
    if (f == stdout ? fflush(f) != 0 : fclose(f) != 0) {
        fprintf(stderr, "redlock-bench: writing the metrics: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

static void client_options(const bench_cfg *cfg, redlock_options *o)
{
    redlock_options_init(o);
    /* The bench measures the engine, usually on masters it has just
     * started: the restart guard would not count them for a ttl. */
    o->restart_guard_ms = 0;
    if (cfg->node_timeout_ms >= 0)
        o->node_timeout_ms = cfg->node_timeout_ms;
    if (cfg->retry_count >= 0)
        o->retry_count = cfg->retry_count;
    if (cfg->retry_delay_ms >= 0)
        o->retry_delay_ms = cfg->retry_delay_ms;
    if (cfg->retry_jitter_ms >= 0)
        o->retry_jitter_ms = cfg->retry_jitter_ms;
    if (cfg->cluster_refresh_ms >= 0)
        o->cluster_refresh_ms = cfg->cluster_refresh_ms;
    o->replica_acks = cfg->replica_acks;
    o->tls_ca_file = cfg->tls_ca;
    o->tls_cert_file = cfg->tls_cert;
    o->tls_key_file = cfg->tls_key;
    o->tls_server_name = cfg->tls_server_name;
}

/* The client's redlock_client, connected to every master within 5 s, or at
 * least to a quorum.  0, or -1 with a message in err. */
static int connect_client(bench_thread *t, lthread *lt, char *err, size_t errlen)
{
    const bench_cfg *cfg = t->sh->cfg;
    redlock_options o;
    client_options(cfg, &o);
    char e[256] = "";
    int rc = redlock_client_new(&lt->cli, t->base, cfg->nodes, cfg->nnodes, &o, e, sizeof(e));
    if (rc != 0) {
        snprintf(err, errlen, "redlock_client_new: %s (%s)", e, redlock_strerror(rc));
        return -1;
    }
    /* Wait (up to 5 s) for every node, then require at least a quorum. */
    lt->deadline_ns = rlb_now_ns() + 5000000000LL;
    struct event *ev = event_new(t->base, -1, EV_PERSIST, on_connect_tick, t);
    struct timeval tv = {0, 2000};
    if (!ev)
        return rlb_oom(err, errlen);
    event_add(ev, &tv);
    event_base_dispatch(t->base);
    event_free(ev);
    size_t up = redlock_client_connected(lt->cli);
    if (up < redlock_client_quorum(lt->cli)) {
        /* the first down node's reason (a TLS failure says what failed) */
        const char *why = "";
        for (size_t i = 0; i < cfg->nnodes && !*why; i++) {
            redlock_node_stats st;
            if (redlock_client_node_stats(lt->cli, i, &st) == 0 && st.last_error)
                why = st.last_error;
        }
        snprintf(err, errlen, "only %zu of %zu masters connected after 5 s%s%s", up,
                 redlock_client_nodes(lt->cli), *why ? ": " : "", why);
        return -1;
    }
    if (up < cfg->nnodes)
        fprintf(stderr, "redlock-bench: client %d: only %zu of %zu masters up\n", t->id, up,
                cfg->nnodes);
    return 0;
}

/* The client's slots, its idle list and its schedule's timer. */
static int make_slots(bench_thread *t, lthread *lt, char *err, size_t errlen)
{
    lt->slots = calloc((size_t)t->nslots, sizeof(lslot));
    lt->idle = calloc((size_t)t->nslots, sizeof(lslot *));
    lt->sched_ev = evtimer_new(t->base, lib_on_sched, lt);
    if (!lt->slots || !lt->idle || !lt->sched_ev)
        return rlb_oom(err, errlen);
    for (int i = 0; i < t->nslots; i++) {
        lslot *s = &lt->slots[i];
        s->t = t;
        s->lt = lt;
        s->gidx = t->slot_base + i;
        s->cur_key = -1;
        s->side = rlb_client_side(t->sh->cfg, t->id);
        s->own = rlb_slot_keys(t->sh->cfg, s->gidx);
        s->timer = evtimer_new(t->base, lib_on_slot_timer, s);
        if (!s->timer)
            return rlb_oom(err, errlen);
    }
    return 0;
}

static int lib_setup(bench_thread *t, char *err, size_t errlen)
{
    lthread *lt = rlb_impl_new(t, sizeof(*lt), err, errlen);
    if (!lt || connect_client(t, lt, err, errlen) != 0)
        return -1;
    return make_slots(t, lt, err, errlen);
}

static void lib_run(bench_thread *t, int n)
{
    const bench_cfg *cfg = t->sh->cfg;
    lthread *lead = t->impl;
    lead->tick = event_new(t->base, -1, EV_PERSIST, on_run_tick, t);
    struct timeval tv = {0, 50000};
    event_add(lead->tick, &tv);
    int64_t now = rlb_now_ns();
    t->grp_active = 0;
    for (int i = 0; i < n; i++) {
        lthread *lt = t[i].impl;
        lt->lead = t;
        lt->active = t[i].nslots;
        t->grp_active += t[i].nslots;
        /* client c's ops are due at now + (c + k * clients) / rate: the
         * clients take turns, together --rate a second */
        lt->period = (int64_t)((double)cfg->clients * 1e9 / (cfg->rate > 0 ? cfg->rate : 1));
        lt->sched0 = now + (int64_t)((double)t[i].id * 1e9 / (cfg->rate > 0 ? cfg->rate : 1));
    }
    for (int i = 0; i < n; i++) {
        lthread *lt = t[i].impl;
        for (int k = 0; k < t[i].nslots; k++) {
            lt->slots[k].active = 1;
            if (cfg->rate > 0)
                lt->idle[lt->nidle++] = &lt->slots[k];
            else
                lib_slot_start(&lt->slots[k]);
        }
    }
    for (int i = 0; i < n && cfg->rate > 0; i++)
        lib_dispatch_due(t[i].impl);
    if (t->grp_active > 0)
        event_base_dispatch(t->base);
    for (int i = 0; i < n; i++)
        lib_count_missed(&t[i]);
}

/* The library's own count of this client's attempts (the whole run,
 * warm-up included: the library does not know the phases). */
static void read_acquire_stats(bench_thread *t)
{
    lthread *lt = t->impl;
    redlock_acquire_stats a;

    if (redlock_client_acquire_stats(lt->cli, &a) != 0)
        return;
    t->st.lib_attempts = a.attempts;
    t->st.lib_won = a.won;
    t->st.lib_split_votes = a.split_votes;
    t->st.lib_wakeups = a.wakeups;
    t->st.have_lib_stats = 1;
}

static void lib_teardown(bench_thread *t)
{
    lthread *lt = t->impl;
    if (!lt)
        return;
    lt->tearing = 1;
    if (lt->cli)
        read_acquire_stats(t);
    if (lt->cli && t->id == 0 && (t->sh->cfg->metrics || t->sh->cfg->metrics_path))
        keep_metrics(lt->cli);
    if (lt->slots) {
        for (int i = 0; i < t->nslots; i++) {
            rlb_event_free(lt->slots[i].timer);
            redlock_lock_free(lt->slots[i].lock);
        }
    }
    rlb_event_free(lt->tick);
    rlb_event_free(lt->sched_ev);
    redlock_client_free(lt->cli);
    free(lt->slots);
    free(lt->idle);
    free(lt);
    t->impl = NULL;
}

const bench_impl lib_impl = {lib_setup, lib_run, lib_teardown};
