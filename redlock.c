/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* redlock.c -- the client: options, the masters, and the list of every
 * script the masters load (each layer's Lua stays in its own file).  Its
 * statistics are client/stats.c's, the blocking calls client/blocking.c's,
 * lock handles lock/handle.c's, error strings floor/errors.c's.
 *
 * A client owns, from the bottom up: the loop floor (its event base, its
 * clock), the settings every connection shares (`net`), and the fleet of
 * masters that operations fan out to.  Freeing it cancels what is in
 * flight; the memory goes once no library frame is left on the stack
 * (loop.c's bracket).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <event2/event.h>
#include "client/client.h"

#define MAX_TTL_MS ((int64_t)1 << 40)
#define MAX_NODES 1024
#define HOUR_MS 3600000

/* ---- options --------------------------------------------------------- */


/* Every script a master runs, by number: the lock machine's
 * (lock/scripts.c), each kind's (kinds/) and the inspection's (client/). */
static const char *const scripts[REDLOCK__NSCRIPTS] = {
    [REDLOCK__SCRIPT_RELEASE] = redlock__lua_release,
    [REDLOCK__SCRIPT_EXTEND] = redlock__lua_extend,
    [REDLOCK__SCRIPT_REGROW] = redlock__lua_regrow,
    [REDLOCK__SCRIPT_FENCE_RAISE] = redlock__lua_fence_raise,
    [REDLOCK__SCRIPT_WAIT] = redlock__lua_wait,
    [REDLOCK__SCRIPT_RELEASE_WQ] = redlock__lua_release_wq,
    [REDLOCK__SCRIPT_TELL] = redlock__lua_tell,
    [REDLOCK__SCRIPT_RE_ACQUIRE] = redlock__lua_re_acquire,
    [REDLOCK__SCRIPT_RE_EXTEND] = redlock__lua_re_extend,
    [REDLOCK__SCRIPT_RE_RELEASE] = redlock__lua_re_release,
    [REDLOCK__SCRIPT_RE_FENCE_RAISE] = redlock__lua_re_fence_raise,
    [REDLOCK__SCRIPT_RW_READ_EXTEND] = redlock__lua_rw_read_extend,
    [REDLOCK__SCRIPT_RW_READ_RELEASE] = redlock__lua_rw_read_release,
    [REDLOCK__SCRIPT_RW_WRITE] = redlock__lua_rw_write,
    /* kinds/rwlock.c, kinds/rwread.c: phase-fair turns */
    [REDLOCK__SCRIPT_RW_WRITE_RELEASE] = redlock__lua_rw_write_release,
    [REDLOCK__SCRIPT_RW_READ_WAIT] = redlock__lua_rw_read_wait,
    [REDLOCK__SCRIPT_MULTI_ACQUIRE] = redlock__lua_multi_acquire,
    [REDLOCK__SCRIPT_MULTI_EXTEND] = redlock__lua_multi_extend,
    [REDLOCK__SCRIPT_MULTI_RELEASE] = redlock__lua_multi_release,
    /* kinds/semaphore.c */
    [REDLOCK__SCRIPT_SEM_ACQUIRE] = redlock__lua_sem_acquire,
    [REDLOCK__SCRIPT_SEM_EXTEND] = redlock__lua_sem_extend,
    [REDLOCK__SCRIPT_SEM_RELEASE] = redlock__lua_sem_release,
    [REDLOCK__SCRIPT_SEM_FENCE_RAISE] = redlock__lua_sem_fence_raise,
    [REDLOCK__SCRIPT_INSPECT] = redlock__lua_inspect,
    /* kinds/reentrant.c, kinds/multi.c, kinds/semaphore.c: the releases that pick */
    [REDLOCK__SCRIPT_RE_RELEASE_WQ] = redlock__lua_re_release_wq,
    [REDLOCK__SCRIPT_MULTI_RELEASE_WQ] = redlock__lua_multi_release_wq,
    [REDLOCK__SCRIPT_SEM_RELEASE_WQ] = redlock__lua_sem_release_wq,
    /* kinds/rwlock.c: the writer's abandon (acquire cancel, deadlines) */
    [REDLOCK__SCRIPT_RW_ABANDON] = redlock__lua_rw_abandon,
    /* kinds/rwlock.c, kinds/rwread.c: the releases that wake waiters */
    [REDLOCK__SCRIPT_RW_WRITE_RELEASE_WQ] = redlock__lua_rw_write_release_wq,
    [REDLOCK__SCRIPT_RW_READ_RELEASE_WQ] = redlock__lua_rw_read_release_wq,
    /* kinds/rwread.c: a reader's abandon (acquire cancel, deadlines) */
    [REDLOCK__SCRIPT_RW_READ_ABANDON] = redlock__lua_rw_read_abandon,
};

static void options_defaults(redlock_options *o)
{
    memset(o, 0, sizeof *o);
    o->node_timeout_ms = 200;
    o->connect_timeout_ms = 1000;
    o->drift_factor = 0.01;
    o->drift_min_ms = 2;
    o->retry_count = 10;
    o->retry_delay_ms = 200;
    o->retry_jitter_ms = 100;
    o->acquire_timeout_ms = 0;
    o->reconnect_min_ms = 10;
    o->reconnect_max_ms = 1000;
    o->max_pending = 65536;
    o->max_timeouts = 3;
    o->key_prefix = "";
    o->clock_probe_ms = 1000;
    o->restart_guard_ms = -1;   /* automatic: the largest ttl in use */
    o->clock_guard_ms = -1;
    o->wake = 1;
    o->cluster_refresh_ms = 1000;
    o->replica_wait_ms = -1;
}

void redlock_options_init_(redlock_options *o, size_t size)
{
    redlock_options d;

    if (!o)
        return;
    options_defaults(&d);
    memcpy(o, &d, size < sizeof d ? size : sizeof d);
}

/* 0.1.0's entry point: its struct ended before clock_probe_ms. */
REDLOCK_API void (redlock_options_init)(redlock_options *o);
void (redlock_options_init)(redlock_options *o)
{
    redlock_options_init_(o, REDLOCK__OPTIONS_V0_SIZE);
}

static int errf(char *err, size_t errlen, int code, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
    return code;
}

static int check_options(const redlock_options *o, char *err, size_t errlen)
{
    /* Every bound keeps the microsecond arithmetic far from overflow. */
    if (o->node_timeout_ms <= 0 || o->node_timeout_ms > HOUR_MS)
        return errf(err, errlen, REDLOCK_EINVAL, "node_timeout_ms must be in 1 .. 3600000");
    if (o->connect_timeout_ms <= 0 || o->connect_timeout_ms > HOUR_MS)
        return errf(err, errlen, REDLOCK_EINVAL, "connect_timeout_ms must be in 1 .. 3600000");
    if (!(o->drift_factor >= 0.0 && o->drift_factor < 1.0))
        return errf(err, errlen, REDLOCK_EINVAL, "drift_factor must be in [0, 1)");
    if (o->drift_min_ms < 0 || o->drift_min_ms > MAX_TTL_MS)
        return errf(err, errlen, REDLOCK_EINVAL, "drift_min_ms must be in 0 .. 2^40");
    if (o->retry_count < 0)
        return errf(err, errlen, REDLOCK_EINVAL, "retry_count must be >= 0");
    if (o->retry_delay_ms < 0 || o->retry_delay_ms > HOUR_MS)
        return errf(err, errlen, REDLOCK_EINVAL, "retry_delay_ms must be in 0 .. 3600000");
    if (o->retry_jitter_ms < 0 || o->retry_jitter_ms > o->retry_delay_ms)
        return errf(err, errlen, REDLOCK_EINVAL, "retry_jitter_ms must be in 0 .. retry_delay_ms");
    if (o->acquire_timeout_ms < 0)
        return errf(err, errlen, REDLOCK_EINVAL,
                    "acquire_timeout_ms must be >= 0 (0, or more than 2^40: no limit)");
    if (o->reconnect_min_ms < 1 || o->reconnect_min_ms > HOUR_MS)
        return errf(err, errlen, REDLOCK_EINVAL, "reconnect_min_ms must be in 1 .. 3600000");
    if (o->reconnect_max_ms < o->reconnect_min_ms || o->reconnect_max_ms > HOUR_MS)
        return errf(err, errlen, REDLOCK_EINVAL,
                    "reconnect_max_ms must be in reconnect_min_ms .. 3600000");
    if (o->max_pending < 1)
        return errf(err, errlen, REDLOCK_EINVAL, "max_pending must be >= 1");
    if (o->max_timeouts < 0)
        return errf(err, errlen, REDLOCK_EINVAL, "max_timeouts must be >= 0");
    if (o->clock_probe_ms < 0 || o->clock_probe_ms > HOUR_MS)
        return errf(err, errlen, REDLOCK_EINVAL, "clock_probe_ms must be in 0 .. 3600000");
    if (o->cluster_refresh_ms < 0 || o->cluster_refresh_ms > HOUR_MS)
        return errf(err, errlen, REDLOCK_EINVAL, "cluster_refresh_ms must be in 0 .. 3600000");
    if (o->replica_acks < 0 || o->replica_acks > 64)
        return errf(err, errlen, REDLOCK_EINVAL, "replica_acks must be in 0 .. 64");
    if (o->replica_wait_ms < -1 || o->replica_wait_ms == 0 || o->replica_wait_ms > HOUR_MS)
        return errf(err, errlen, REDLOCK_EINVAL,
                    "replica_wait_ms must be -1 (half the node timeout) or 1 .. 3600000");
    if (o->restart_guard_ms < -1 || o->restart_guard_ms > MAX_TTL_MS)
        return errf(err, errlen, REDLOCK_EINVAL,
                    "restart_guard_ms must be -1 (automatic), 0 (off) or 1 .. 2^40");
    if (o->clock_guard_ms < -1 || o->clock_guard_ms > MAX_TTL_MS)
        return errf(err, errlen, REDLOCK_EINVAL,
                    "clock_guard_ms must be -1 (automatic), 0 (off) or 1 .. 2^40");
    if (o->user && !o->password)
        return errf(err, errlen, REDLOCK_EINVAL, "user needs a password");
    if (o->loop_thread != 0 && o->loop_thread != 1)
        return errf(err, errlen, REDLOCK_EINVAL, "loop_thread must be 0 or 1");
    if (o->wake != 0 && o->wake != 1)
        return errf(err, errlen, REDLOCK_EINVAL, "wake must be 0 or 1");
    return 0;
}

/* ---- the client ------------------------------------------------------ */

/* The pools keep what the last period's load used (redlock__pool). */
static void trim_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock_client *c = arg;
    int more;
    (void)fd;
    (void)what;

    redlock__enter(&c->loop);
    c->trim.armed = 0;
    more = redlock__op_pool_trim(&c->fleet);
    more |= redlock__lock_flight_pool_trim(c);
    if (more)
        redlock__trim_soon(&c->trim, &c->loop);
    redlock__leave(&c->loop);
}

static void client_destroy(void *owner)
{
    redlock_client *c = owner;

    if (event_initialized(&c->probe_timer))
        evtimer_del(&c->probe_timer);
    if (event_initialized(&c->trim.ev))
        evtimer_del(&c->trim.ev);
    for (size_t i = 0; i < c->fleet.n; i++)
        redlock__vote_close(&c->fleet.masters[i]);
    redlock__op_cancel_all(&c->fleet);  /* none expected (free cancelled them) */
    redlock__op_pool_free(&c->fleet);
    redlock__lock_flight_pool_free(c);
    redlock__wake_free(c);
    redlock__random_free(&c->rnd);
    redlock__tls_free(&c->net.ssl_ctx);
    free(c->tls_server_name);
    free(c->errtext);
    free(c->fleet.masters);
    free(c->key_prefix);
    if (c->own_base)
        event_base_free(c->loop.base);
    free(c);
}

/* A master that dies while we write to it raises SIGPIPE, whose default
 * action kills the process: libevent writes with writev() and OpenSSL with
 * write(), neither with MSG_NOSIGNAL.  So when the process still has the
 * default action we ignore the signal (the write then fails with EPIPE and
 * the master is marked down).  A handler the application installed is kept. */
static void ignore_sigpipe(void)
{
    struct sigaction old, ign;

    if (sigaction(SIGPIPE, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
        old.sa_handler == SIG_DFL) {
        memset(&ign, 0, sizeof ign);
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        sigaction(SIGPIPE, &ign, NULL);
    }
}

/* A master read its run_id: is it another's twin (guard.c)? */
static void node_identified(void *privdata, size_t node, const char *old)
{
    redlock_client *c = privdata;
    redlock__guard_twins(c->fleet.masters, c->fleet.n, node, old);
    c->fleet.twins = 0;
    for (size_t i = 0; i < c->fleet.n; i++)
        c->fleet.twins += c->fleet.masters[i].twins > 0;
}

/* From a master, towards the application's node_cb. */
static void node_event(void *privdata, size_t node, int event, const char *detail)
{
    redlock_client *c = privdata;

    if (c->opt.node_cb && !c->loop.closing) {
        c->in_node_cb++;
        c->opt.node_cb(c, node, event, detail, c->opt.node_privdata);
        c->in_node_cb--;
    }
}

static struct event_base *private_base(void)
{
    /* libevent's default clock is CLOCK_MONOTONIC_COARSE, whose tick can
     * be 4 ms: too coarse for millisecond node timeouts. */
    struct event_config *cfg = event_config_new();
    struct event_base *base = NULL;

    if (cfg) {
        event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
        base = event_base_new_with_config(cfg);
        event_config_free(cfg);
    }
    return base;
}

/* Credentials from the options for masters whose address has none. */
static int default_credentials(redlock__addr *a, const redlock_options *o)
{
    if (!o->password || a->password)
        return 0;
    if (!(a->password = strdup(o->password)))
        return REDLOCK_ENOMEM;
    if (o->user && !a->user && !(a->user = strdup(o->user)))
        return REDLOCK_ENOMEM;
    return 0;
}

/* Masters, TLS and the fleet's shared parts. */
static int build(redlock_client *c, const char *const *nodes, size_t nnodes,
                 const redlock_options *o, char *err, size_t errlen)
{
    int rc, any_tls = 0;

    for (size_t i = 0; i < nnodes; i++) {
        redlock__master *m = &c->fleet.masters[i];
        if (!nodes[i])
            return errf(err, errlen, REDLOCK_EINVAL, "node address is NULL");
        c->fleet.n = i + 1;
        if ((rc = redlock__vote_init(m, &c->net, i, nodes[i], err, errlen)) != 0)
            return rc;
        if (default_credentials(&m->addr, o) != 0)
            return errf(err, errlen, REDLOCK_ENOMEM, "out of memory");
        any_tls |= m->addr.tls;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(c->fleet.masters[j].label, m->label) == 0) {
                /* The same master twice would count one server's vote twice
                 * and break the quorum's meaning. */
                if (err && errlen)
                    snprintf(err, errlen, "node %s is given twice", m->label);
                return REDLOCK_EINVAL;
            }
        }
    }
    if (any_tls && (rc = redlock__tls_init(&c->net.ssl_ctx, o, err, errlen)) != 0)
        return rc;
    if ((rc = redlock__votes_link(c->fleet.masters, c->fleet.n, err, errlen)) != 0)
        return rc;
    for (size_t i = 0; i < c->fleet.n; i++)
        c->fleet.clusters += c->fleet.masters[i].cluster != NULL;
    if (o->tls_server_name && !(c->tls_server_name = strdup(o->tls_server_name)))
        return errf(err, errlen, REDLOCK_ENOMEM, "out of memory");
    c->net.tls_server_name = c->tls_server_name;
    for (int i = 0; i < REDLOCK__NSCRIPTS; i++)
        redlock__sha1_hex(scripts[i], strlen(scripts[i]), c->fleet.sha[i]);
    {
        struct timeval tv = redlock__tv(c->opt.node_timeout_ms * 1000);
        c->fleet.node_timeout_tv = event_base_init_common_timeout(c->loop.base, &tv);
    }
    return 0;
}

/* The caller's arguments and options, defaults for what an older (shorter)
 * options struct lacks: 0 and *o, or an error. */
static int take_options(redlock_options *o, struct event_base *base, const char *const *nodes,
                        size_t nnodes, const redlock_options *opts, size_t opts_size,
                        char *err, size_t errlen)
{
    int rc;

    if (!nodes || nnodes == 0)
        return errf(err, errlen, REDLOCK_EINVAL, "no nodes given");
    if (nnodes > MAX_NODES)
        return errf(err, errlen, REDLOCK_EINVAL, "more than 1024 nodes");
    options_defaults(o);
    if (opts)
        memcpy(o, opts, opts_size < sizeof *o ? opts_size : sizeof *o);
    if ((rc = check_options(o, err, errlen)) != 0)
        return rc;
    if (o->loop_thread && base)
        return errf(err, errlen, REDLOCK_EINVAL,
                    "loop_thread is for a client without an event base (base == NULL)");
    return 0;
}

/* The client's own memory: the struct, its key prefix, its masters, its
 * loop's base (its own unless the caller gave one); NULL: out of memory. */
static redlock_client *client_alloc(const redlock_options *o, struct event_base *base,
                                    size_t nnodes)
{
    redlock_client *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->opt = *o;
    c->prefixlen = o->key_prefix ? strlen(o->key_prefix) : 0;
    c->key_prefix = malloc(c->prefixlen + 1);
    c->fleet.masters = calloc(nnodes, sizeof *c->fleet.masters);
    c->loop.base = base ? base : private_base();
    c->own_base = !base;
    if (!c->key_prefix || !c->fleet.masters || !c->loop.base) {
        free(c->key_prefix);
        free(c->fleet.masters);
        if (c->own_base && c->loop.base)
            event_base_free(c->loop.base);
        free(c);
        return NULL;
    }
    memcpy(c->key_prefix, c->prefixlen ? o->key_prefix : "", c->prefixlen + 1);
    /* the caller's strings need not outlive the client's creation */
    c->opt.key_prefix = NULL;
    c->opt.tls_ca_file = c->opt.tls_ca_dir = c->opt.tls_cert_file = NULL;
    c->opt.tls_key_file = c->opt.tls_server_name = NULL;
    c->opt.user = c->opt.password = NULL;
    return c;
}

/* The loop, the settings every master shares (with the callbacks that
 * bring their news up here) and the fleet, before any master is built. */
static void client_wire(redlock_client *c, const redlock_options *o)
{
    c->loop.clock = o->clock ? o->clock : redlock__clock_default;
    c->loop.clock_privdata = o->clock_privdata;
    c->loop.destroy = client_destroy;
    c->loop.owner = c;
    c->loop.closing = 1;    /* until built: no reconnect timers, no events */
    c->net = (redlock__net){ &c->loop, o->connect_timeout_ms, o->node_timeout_ms,
                             o->reconnect_min_ms, o->reconnect_max_ms, o->max_pending,
                             o->max_timeouts, NULL, NULL, o->tls_insecure_skip_verify,
                             node_event, c, redlock__wake_side, redlock__wake_message,
                             o->restart_guard_ms, o->clock_guard_ms,
                             o->strict != 0, o->drift_factor, o->drift_min_ms, 0,
                             o->clock_probe_ms, node_identified, redlock__locks_clock_ahead,
                             scripts, o->cluster_refresh_ms, o->replica_acks,
                             o->replica_wait_ms > 0 ? o->replica_wait_ms
                             : o->node_timeout_ms > 1 ? o->node_timeout_ms / 2 : 1 };
    c->fleet.loop = &c->loop;
    c->fleet.net = &c->net;
    evtimer_assign(&c->trim.ev, c->loop.base, trim_cb, c);
    c->fleet.trim = &c->trim;
    c->fleet.node_timeout_us = o->node_timeout_ms * 1000;
    redlock__list_init(&c->fleet.live);
    redlock__list_init(&c->locks);
}

int redlock_client_new_(redlock_client **out, struct event_base *base,
                        const char *const *nodes, size_t nnodes, const redlock_options *opts,
                        size_t opts_size, char *err, size_t errlen)
{
    redlock_options o;
    redlock_client *c;
    int rc;

    if (err && errlen)
        err[0] = '\0';
    if (!out)
        return errf(err, errlen, REDLOCK_EINVAL, "out is NULL");
    *out = NULL;
    if ((rc = take_options(&o, base, nodes, nnodes, opts, opts_size, err, errlen)) != 0)
        return rc;
    if (!(c = client_alloc(&o, base, nnodes)))
        return errf(err, errlen, REDLOCK_ENOMEM, "out of memory");
    client_wire(c, &o);
    if ((rc = build(c, nodes, nnodes, &o, err, errlen)) != 0) {
        client_destroy(c);
        return rc;
    }
    redlock__random_init(&c->rnd, (uint64_t)redlock__now(&c->loop));
    c->loop.closing = 0;
    ignore_sigpipe();
    for (size_t i = 0; i < c->fleet.n; i++)
        redlock__conn_connect(&c->fleet.masters[i].conn);
    redlock__probe_arm(c);
    if (o.loop_thread && (rc = redlock__thread_start(&c->loop, err, errlen)) != 0) {
        redlock_client_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* 0.1.0's entry point. */
REDLOCK_API int (redlock_client_new)(redlock_client **out, struct event_base *base,
                                     const char *const *nodes, size_t nnodes,
                                     const redlock_options *opts, char *err, size_t errlen);
int (redlock_client_new)(redlock_client **out, struct event_base *base,
                         const char *const *nodes, size_t nnodes, const redlock_options *opts,
                         char *err, size_t errlen)
{
    return redlock_client_new_(out, base, nodes, nnodes, opts, REDLOCK__OPTIONS_V0_SIZE, err,
                               errlen);
}

void redlock_client_free(redlock_client *c)
{
    /* From a node_cb it would pull the connection (or, for a blocking
     * client, the event base) from under the code reporting the event. */
    if (!c || c->loop.closing || c->in_node_cb)
        return;
    /* A loop thread stops first (not from one of its own callbacks: it
     * would wait for itself): what follows runs alone. */
    if (c->loop.th) {
        int taken = redlock__gate_enter(c);
        if (!taken)
            return;
        redlock__thread_stop(&c->loop, taken);
    }
    redlock__enter(&c->loop);
    /* Attempts not yet delivered may have won keys (or win them when their
     * writes arrive): queue an undo behind each, which the connections
     * hand to the kernel as they close. */
    for (redlock__link *e = c->fleet.live.next; e != &c->fleet.live; e = e->next) {
        redlock__op *op = redlock__container(e, redlock__op, live);
        if (op->kind->flags & REDLOCK__KIND_WRITES)
            redlock__op_undo(op);
    }
    /* ... and fenced acquires that won and are raising their counters */
    for (redlock__link *e = c->locks.next; e != &c->locks; e = e->next) {
        redlock_lock *l = redlock__container(e, redlock_lock, link);
        if (l->fl && l->fl->fenced)
            redlock__op_undo(l->fl->fenced);
    }
    c->loop.closing = 1;
    c->fleet.closing = 1;
    redlock__locks_detach(c);
    redlock__op_cancel_all(&c->fleet);
    redlock__leave(&c->loop);
}

size_t redlock_client_nodes(const redlock_client *c)
{
    return c ? c->fleet.n : 0;
}

size_t redlock_client_quorum(const redlock_client *c)
{
    return c ? c->fleet.n / 2 + 1 : 0;
}

REDLOCK_API int (redlock_lock_node_result)(const redlock_lock *l, size_t node,
                                           redlock_node_result *out);
int (redlock_lock_node_result)(const redlock_lock *l, size_t node, redlock_node_result *out)
{
    return redlock_lock_node_result_(l, node, out, REDLOCK__RESULT_V0_SIZE);
}

const char *redlock_version(void)
{
#define STR2(x) #x
#define STR(x) STR2(x)
    return STR(REDLOCK_VERSION_MAJOR) "." STR(REDLOCK_VERSION_MINOR) "." STR(REDLOCK_VERSION_PATCH);
}
