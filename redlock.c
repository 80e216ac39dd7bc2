/* redlock.c -- the client, lock handles and the lock policy: acquire with
 * retries, extend, release, and the blocking wrappers.
 *
 * An acquire is a series of attempts.  Each attempt is one fan-out
 * (fanout.c) of SET key value NX PX ttl with a fresh random value:
 *
 *   attempt ──won──▶ validity = ttl - elapsed - drift, callback(0)
 *      │
 *      └─lost──▶ release the value on EVERY node (fire and forget: on each
 *                connection it queues behind our SET, so it also clears
 *                nodes that answered late) ──▶ random delay ──▶ attempt
 *                ... until retry_count or the acquire deadline.
 *
 * Lifetimes: a lock handle has at most one operation in flight (`busy`).
 * Freeing a lock or the client while busy completes that operation with
 * REDLOCK_ECANCELED; an acquire attempt still in flight then releases
 * whatever it wins, so a cancelled acquire never leaves a lock behind
 * longer than the release takes to arrive.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>
#include "redlock_private.h"

#define MAX_TTL_MS ((int64_t)1 << 40)
#define MAX_NODES 1024
#define VALUE_BYTES 16      /* 128 random bits, sent as 32 hex digits */

enum lock_op { OP_NONE, OP_ACQUIRE, OP_TRY, OP_EXTEND, OP_RELEASE };

struct redlock_lock {
    redlock_client *c;               /* NULL once the client is freed */
    redlock_lock *next, *prev;       /* client's list of locks */
    char *key;                       /* prefix + resource */
    size_t keylen;
    char *value;
    size_t valuelen;
    int fixed_value;
    int64_t valid_until_us;          /* 0: not held */
    unsigned clock_steps;            /* the client's clock_steps when granted */
    uint32_t *gen;                   /* per node: connection of the winning SET */
    size_t nodes_ok;
    char errstr[256];
    /* per-node outcome of the last operation */
    unsigned char *votes;
    int64_t *rtt;
    char (*detail)[REDLOCK__DETAIL];
    /* the operation in flight */
    enum lock_op busy;
    int freeing;
    redlock__op *op;
    int64_t ttl_ms;
    int attempts_left;
    int64_t deadline_us;
    struct event retry_timer;
    redlock_cb *cb;
    void *privdata;
};

/* ---- op kinds: what each fan-out sends and how a reply votes --------- */

static const char *op_key(const redlock__op *op) { return op->data.p; }
static const char *op_value(const redlock__op *op) { return op->data.p + op->keylen; }

static int encode_set(redlock__op *op, redlock__buf *out, int eval)
{
    char ttl[24];
    const char *argv[6] = { "SET", op_key(op), op_value(op), "NX", "PX", ttl };
    size_t len[6] = { 3, op->keylen, op->valuelen, 2, 2, 0 };
    (void)eval;
    len[5] = redlock__u64_str(ttl, (uint64_t)op->ttl_ms);     /* ttl > 0 */
    return redlock__resp_command(out, 6, argv, len);
}

static int encode_script(redlock__op *op, redlock__buf *out, int eval, int script)
{
    char ttl[24];
    const char *body = redlock__script_body[script];
    const char *argv[6] = { eval ? "EVAL" : "EVALSHA", eval ? body : op->c->sha[script],
                            "1", op_key(op), op_value(op), ttl };
    size_t len[6] = { eval ? 4 : 7, eval ? strlen(body) : 40, 1, op->keylen, op->valuelen, 0 };
    int argc = 5;
    if (op->ttl_ms) {
        len[5] = redlock__u64_str(ttl, (uint64_t)op->ttl_ms);
        argc = 6;
    }
    return redlock__resp_command(out, argc, argv, len);
}

static int encode_release(redlock__op *op, redlock__buf *out, int eval)
{
    return encode_script(op, out, eval, REDLOCK__SCRIPT_RELEASE);
}

static int encode_extend(redlock__op *op, redlock__buf *out, int eval)
{
    return encode_script(op, out, eval, REDLOCK__SCRIPT_EXTEND);
}

/* SET NX: +OK is a vote for us, nil means the key is someone else's. */
static int classify_set(const redlock__reply *r)
{
    if (r->type == REDIS_REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0)
        return REDLOCK__OK;
    if (r->type == REDIS_REPLY_NIL)
        return REDLOCK__REFUSED;
    return REDLOCK__ERROR;
}

/* Compare-and-act scripts: 1 acted, 0 not our value (or gone). */
static int classify_script(const redlock__reply *r)
{
    if (r->type == REDIS_REPLY_INTEGER)
        return r->integer == 1 ? REDLOCK__OK : REDLOCK__REFUSED;
    if (r->type == REDIS_REPLY_ERROR && r->len >= 8 && memcmp(r->str, "NOSCRIPT", 8) == 0)
        return -1;
    return REDLOCK__ERROR;
}

static const redlock__op_kind kind_acquire = {
    .name = "acquire", .encode = encode_set, .classify = classify_set };
static const redlock__op_kind kind_extend = {
    .name = "extend", .encode = encode_extend, .classify = classify_script };
static const redlock__op_kind kind_release = {
    .name = "release", .wait_all = 1, .is_release = 1, .encode = encode_release,
    .classify = classify_script };

/* ---- client ------------------------------------------------------------ */

void redlock_options_init(redlock_options *o)
{
    if (!o)
        return;
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
}

static int errf(char *err, size_t errlen, int code, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
    return code;
}

#define HOUR_MS 3600000

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
    return 0;
}

static void client_destroy(redlock_client *c)
{
    for (size_t i = 0; i < c->n; i++)
        redlock__node_close(&c->nodes[i]);
    redlock__op_cancel_all(c);      /* none expected (free cancelled them); no leak if so */
    redlock__op_pool_free(c);
    redlock__tls_free(c);
    free(c->tls_server_name);
    free(c->nodes);
    free(c->key_prefix);
    if (c->own_base)
        event_base_free(c->base);
    free(c);
}

/* A master that dies while we write to it raises SIGPIPE, whose default
 * action kills the process: libevent writes with writev() and OpenSSL with
 * write(), neither with MSG_NOSIGNAL.  So when the process still has the
 * default action we ignore the signal (the write then fails with EPIPE and
 * the node is marked down).  A handler the application installed is kept. */
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

int redlock_client_new(redlock_client **out, struct event_base *base,
                       const char *const *nodes, size_t nnodes,
                       const redlock_options *opts, char *err, size_t errlen)
{
    redlock_options defaults;
    redlock_client *c;
    int rc;

    if (err && errlen)
        err[0] = '\0';
    if (!out)
        return errf(err, errlen, REDLOCK_EINVAL, "out is NULL");
    *out = NULL;
    if (!nodes || nnodes == 0)
        return errf(err, errlen, REDLOCK_EINVAL, "no nodes given");
    if (nnodes > MAX_NODES)
        return errf(err, errlen, REDLOCK_EINVAL, "more than 1024 nodes");
    if (!opts) {
        redlock_options_init(&defaults);
        opts = &defaults;
    }
    if ((rc = check_options(opts, err, errlen)) != 0)
        return rc;
    if (!(c = calloc(1, sizeof *c)))
        return errf(err, errlen, REDLOCK_ENOMEM, "out of memory");
    c->opt = *opts;
    c->opt.key_prefix = NULL;
    c->prefixlen = opts->key_prefix ? strlen(opts->key_prefix) : 0;
    c->key_prefix = malloc(c->prefixlen + 1);
    c->nodes = calloc(nnodes, sizeof *c->nodes);
    if (!c->key_prefix || !c->nodes) {
        free(c->key_prefix);
        free(c->nodes);
        free(c);
        return errf(err, errlen, REDLOCK_ENOMEM, "out of memory");
    }
    memcpy(c->key_prefix, c->prefixlen ? opts->key_prefix : "", c->prefixlen + 1);
    if (!c->opt.clock)
        c->opt.clock = redlock__clock_default;
    c->base = base;
    if (!base) {
        /* libevent's default clock is CLOCK_MONOTONIC_COARSE, whose tick
         * can be 4 ms: too coarse for millisecond node timeouts. */
        struct event_config *cfg = event_config_new();
        c->own_base = 1;
        if (cfg) {
            event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
            c->base = event_base_new_with_config(cfg);
            event_config_free(cfg);
        }
        if (!c->base) {
            c->closing = 1;
            client_destroy(c);
            return errf(err, errlen, REDLOCK_ENOMEM, "cannot create an event base");
        }
    }
    c->closing = 1;     /* until built: no reconnect timers, no events */
    for (size_t i = 0; i < nnodes; i++) {
        if (!nodes[i]) {
            rc = errf(err, errlen, REDLOCK_EINVAL, "node address is NULL");
            goto fail;
        }
        if ((rc = redlock__addr_parse(&c->nodes[i].addr, nodes[i], err, errlen)) != 0)
            goto fail;
        c->n = i + 1;
        if ((rc = redlock__node_init(&c->nodes[i], c, i)) != 0) {
            errf(err, errlen, rc, "out of memory");
            goto fail;
        }
        for (size_t j = 0; j < i; j++) {
            if (strcmp(c->nodes[j].label, c->nodes[i].label) == 0) {
                /* The same master twice would count one server's vote twice
                 * and break the quorum's meaning. */
                if (err && errlen)
                    snprintf(err, errlen, "node %s is given twice", c->nodes[i].label);
                rc = REDLOCK_EINVAL;
                goto fail;
            }
        }
    }
    if ((rc = redlock__tls_init(c, err, errlen)) != 0)
        goto fail;
    if (opts->tls_server_name && !(c->tls_server_name = strdup(opts->tls_server_name))) {
        rc = errf(err, errlen, REDLOCK_ENOMEM, "out of memory");
        goto fail;
    }
    /* the caller's strings need not outlive this call */
    c->opt.tls_ca_file = c->opt.tls_ca_dir = c->opt.tls_cert_file = NULL;
    c->opt.tls_key_file = c->opt.tls_server_name = NULL;
    for (int i = 0; i < REDLOCK__NSCRIPTS; i++)
        redlock__sha1_hex(redlock__script_body[i], strlen(redlock__script_body[i]), c->sha[i]);
    if (getrandom(&c->rng, sizeof c->rng, 0) != (ssize_t)sizeof c->rng || c->rng == 0)
        c->rng = (uint64_t)redlock__now(c) | 1;
    {
        struct timeval tv = { (time_t)(c->opt.node_timeout_ms / 1000),
                              (suseconds_t)(c->opt.node_timeout_ms % 1000 * 1000) };
        c->node_timeout_tv = event_base_init_common_timeout(c->base, &tv);
    }
    c->closing = 0;
    ignore_sigpipe();
    for (size_t i = 0; i < c->n; i++)
        redlock__node_connect(&c->nodes[i]);
    *out = c;
    return 0;
fail:
    client_destroy(c);
    return rc;
}

void redlock__enter(redlock_client *c)
{
    c->depth++;
}

int redlock__leave(redlock_client *c)
{
    if (--c->depth == 0 && c->closing) {
        client_destroy(c);
        return 1;
    }
    return 0;
}

int64_t redlock__now(redlock_client *c)
{
    int64_t raw = c->opt.clock(c->opt.clock_privdata);

    /* A clock that went back would make validity grow: remember that it
     * happened (every lock granted before then is worth nothing) and carry
     * on from the last reading, so that time never runs backwards for the
     * arithmetic, and keeps running (deadlines, retries) after the step. */
    if (raw < c->last_raw) {
        c->clock_steps++;
        c->clock_offset += c->last_raw - raw;
    }
    c->last_raw = raw;
    return raw + c->clock_offset;
}

void redlock__timer_add(redlock_client *c, struct event *ev, int64_t us)
{
    struct timeval tv;

    if (us < 0)
        us = 0;
    tv.tv_sec = (time_t)(us / 1000000);
    tv.tv_usec = (suseconds_t)(us % 1000000);
    redlock__fresh_loop_time(c, redlock__now(c));
    evtimer_add(ev, &tv);
}

/* libevent measures a timer from the time it cached when the loop woke up;
 * a callback that ran long makes that stale, and the timer would fire early
 * by as much.  Refreshing it costs about a clock read, so it is done at
 * most once per millisecond of our clock: the cache is then never more
 * than 1 ms stale (a burst of operations in one loop turn pays once). */
void redlock__fresh_loop_time(redlock_client *c, int64_t now)
{
    /* an injected clock says nothing of libevent's: refresh every time */
    if (now - c->loop_time_fixed_us >= 1000 || now < c->loop_time_fixed_us ||
        c->opt.clock != redlock__clock_default) {
        event_base_update_cache_time(c->base);
        c->loop_time_fixed_us = now;
    }
}

void redlock__node_event(redlock_client *c, size_t node, int event, const char *detail)
{
    if (c->opt.node_cb && !c->closing) {
        c->in_node_cb++;
        c->opt.node_cb(c, node, event, detail, c->opt.node_privdata);
        c->in_node_cb--;
    }
}

static void cancel_lock_op(redlock_lock *l);
static void release_value(redlock_client *c, const redlock__op *won_or_lost);

void redlock_client_free(redlock_client *c)
{
    /* From a node_cb it would pull the connection (or, for a blocking
     * client, the event base) from under the code reporting the event. */
    if (!c || c->closing || c->in_node_cb)
        return;
    c->depth++;
    /* Acquire attempts not yet delivered may have won keys (or win them
     * when their SETs arrive): queue a release behind each, which the
     * connections hand to the kernel as they close. */
    for (redlock__op *op = c->live_ops; op; op = op->next)
        if (op->kind == &kind_acquire)
            release_value(c, op);
    c->closing = 1;
    /* Detach every lock first: their callbacks see ECANCELED and later
     * calls on them see ECLOSED. */
    while (c->locks) {
        redlock_lock *l = c->locks;
        c->locks = l->next;
        if (c->locks)
            c->locks->prev = NULL;
        l->next = l->prev = NULL;
        l->c = NULL;            /* a redlock_lock_free from the callback just frees */
        cancel_lock_op(l);      /* last use of l: its callback may free it */
    }
    redlock__op_cancel_all(c);
    redlock__leave(c);
}

size_t redlock_client_nodes(const redlock_client *c)
{
    return c ? c->n : 0;
}

size_t redlock_client_quorum(const redlock_client *c)
{
    return c ? c->n / 2 + 1 : 0;
}

size_t redlock_client_connected(const redlock_client *c)
{
    size_t up = 0;
    for (size_t i = 0; c && i < c->n; i++)
        up += c->nodes[i].state == REDLOCK__NODE_UP;
    return up;
}

int redlock_client_node_stats(const redlock_client *c, size_t node, redlock_node_stats *out)
{
    const redlock__node *n;

    if (!c || !out || node >= c->n)
        return REDLOCK_EINVAL;
    n = &c->nodes[node];
    *out = n->stats;
    out->address = n->label;
    out->connected = n->state == REDLOCK__NODE_UP;
    out->tls = n->addr.tls;
    out->last_error = n->lasterr;
    return 0;
}

static void wakeup_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    *(int *)arg = 1;
}

int redlock_client_wait_connected(redlock_client *c, size_t min, int64_t timeout_ms)
{
    struct event *timer;
    struct timeval tv;
    int expired = 0;

    if (!c || !c->own_base || c->depth || min > c->n || timeout_ms < 0)
        return REDLOCK_EINVAL;
    if (!(timer = evtimer_new(c->base, wakeup_cb, &expired)))
        return REDLOCK_ENOMEM;
    tv.tv_sec = (time_t)(timeout_ms / 1000);
    tv.tv_usec = (suseconds_t)(timeout_ms % 1000 * 1000);
    evtimer_add(timer, &tv);
    /* Take in what happened while nobody ran the loop (a blocking client
     * may hold connections the servers closed long ago). */
    event_base_loop(c->base, EVLOOP_NONBLOCK);
    /* Nodes that are down but due are connected now, not after the timer. */
    for (size_t i = 0; i < c->n; i++)
        if (c->nodes[i].state == REDLOCK__NODE_DOWN && redlock__now(c) >= c->nodes[i].retry_at_us)
            redlock__node_connect(&c->nodes[i]);
    while (redlock_client_connected(c) < min && !expired)
        event_base_loop(c->base, EVLOOP_ONCE);
    /* One more turn writes out what the handshakes queued (undos owed to
     * the nodes that came back), instead of holding it until the next call. */
    event_base_loop(c->base, EVLOOP_NONBLOCK);
    event_free(timer);
    return redlock_client_connected(c) >= min ? 0 : REDLOCK_ETIMEDOUT;
}

/* ---- lock handles --------------------------------------------------- */

static void lock_retry_cb(evutil_socket_t fd, short what, void *arg);

int redlock_lock_new(redlock_lock **out, redlock_client *c, const void *resource, size_t len)
{
    redlock_lock *l;

    if (!out)
        return REDLOCK_EINVAL;
    *out = NULL;
    if (!c || !resource || len == 0)
        return REDLOCK_EINVAL;
    if (c->closing)
        return REDLOCK_ECLOSED;
    if (len > 512 * 1024 * 1024 - c->prefixlen)   /* Redis's key limit */
        return REDLOCK_EINVAL;
    if (!(l = calloc(1, sizeof *l)))
        return REDLOCK_ENOMEM;
    l->key = malloc(c->prefixlen + len);
    l->votes = calloc(c->n, 1);
    l->rtt = malloc(c->n * sizeof *l->rtt);
    l->detail = calloc(c->n, sizeof *l->detail);
    l->gen = calloc(c->n, sizeof *l->gen);
    if (!l->key || !l->votes || !l->rtt || !l->detail || !l->gen) {
        free(l->key);
        free(l->gen);
        free(l->votes);
        free(l->rtt);
        free(l->detail);
        free(l);
        return REDLOCK_ENOMEM;
    }
    for (size_t i = 0; i < c->n; i++)
        l->rtt[i] = -1;
    memcpy(l->key, c->key_prefix, c->prefixlen);
    memcpy(l->key + c->prefixlen, resource, len);
    l->keylen = c->prefixlen + len;
    l->c = c;
    evtimer_assign(&l->retry_timer, c->base, lock_retry_cb, l);
    l->next = c->locks;
    if (l->next)
        l->next->prev = l;
    c->locks = l;
    *out = l;
    return 0;
}

static void set_err(redlock_lock *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void set_err(redlock_lock *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->errstr, sizeof l->errstr, fmt, ap);
    va_end(ap);
}

/* Finish the lock's operation: the user callback runs last, and the lock
 * is not touched after it (it may be freed inside). */
static void complete(redlock_lock *l, int status)
{
    redlock_cb *cb = l->cb;
    void *privdata = l->privdata;

    if (status == 0)
        l->errstr[0] = '\0';
    l->busy = OP_NONE;
    l->op = NULL;
    l->cb = NULL;
    l->privdata = NULL;
    if (cb)
        cb(l, status, privdata);
}

static void release_ignore(redlock__op *op, void *privdata)
{
    (void)op;
    (void)privdata;
}

/* Undo an acquire attempt: on every node its SET may have reached (and
 * only there), compare-and-delete behind it, or, if that connection is
 * gone, kill it and delete on the next one (node.c). */
static void release_value(redlock_client *c, const redlock__op *acq)
{
    if (c->closing)
        return;
    for (size_t i = 0; i < c->n; i++)
        if (acq->gen[i])
            redlock__node_undo(&c->nodes[i], acq->gen[i], op_key(acq), acq->keylen,
                               op_value(acq), acq->valuelen);
}

/* An acquire attempt whose lock handle went away: give back what it won. */
static void orphan_done(redlock__op *op, void *privdata)
{
    (void)privdata;
    release_value(op->c, op);
}

static void describe(redlock_lock *l, const redlock__op *op, int code)
{
    const redlock__tally *t = &op->tally;
    if (op->expired && code == REDLOCK_ETIMEDOUT) {
        set_err(l, "%s: the validity ran out before a quorum answered (ttl %lld ms; "
                   "%u of %u nodes OK, quorum %u)%s%s",
                op->kind->name, (long long)op->ttl_ms, t->count[REDLOCK__OK], t->n, t->quorum,
                op->err[0] ? "; first: " : "", op->err);
        return;
    }
    set_err(l, "%s: %s (%u of %u nodes OK, quorum %u; %u refused, %u timed out, "
               "%u unreachable, %u errors, %u full)%s%s",
            op->kind->name, redlock_strerror(code), t->count[REDLOCK__OK], t->n, t->quorum,
            t->count[REDLOCK__REFUSED], t->count[REDLOCK__TIMEOUT], t->count[REDLOCK__DOWN],
            t->count[REDLOCK__ERROR], t->count[REDLOCK__FULL], op->err[0] ? "; first: " : "",
            op->err);
}

static int random_value(redlock_lock *l)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[VALUE_BYTES];
    size_t got = 0;

    while (got < sizeof raw) {
        ssize_t r = getrandom(raw + got, sizeof raw - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            set_err(l, "getrandom: %s", strerror(errno));
            return REDLOCK_ESYSTEM;
        }
        got += (size_t)r;
    }
    if (!l->value && !(l->value = malloc(2 * VALUE_BYTES + 1)))
        return REDLOCK_ENOMEM;
    for (size_t i = 0; i < sizeof raw; i++) {
        l->value[2 * i] = hex[raw[i] >> 4];
        l->value[2 * i + 1] = hex[raw[i] & 15];
    }
    l->value[2 * VALUE_BYTES] = '\0';
    l->valuelen = 2 * VALUE_BYTES;
    return 0;
}

static void acquire_done(redlock__op *op, void *privdata);

/* One acquire attempt; returns an error only when nothing was started. */
static int attempt(redlock_lock *l)
{
    redlock_client *c = l->c;
    redlock__op *op;
    int rc;

    if (!l->fixed_value && (rc = random_value(l)) != 0)
        return rc;
    op = redlock__op_new(c, &kind_acquire, l->key, l->keylen, l->value, l->valuelen, l->ttl_ms);
    if (!op)
        return REDLOCK_ENOMEM;
    op->limit_us = l->deadline_us;
    l->op = op;
    redlock__op_start(op, acquire_done, l);
    return 0;
}

static uint64_t next_random(redlock_client *c)
{
    /* xorshift64: only for retry jitter, never for lock values */
    c->rng ^= c->rng << 13;
    c->rng ^= c->rng >> 7;
    c->rng ^= c->rng << 17;
    return c->rng;
}

/* Keep the per-node outcome of the lock's latest fan-out. */
static void record(redlock_lock *l, const redlock__op *op)
{
    size_t n = op->c->n;

    l->nodes_ok = op->tally.count[REDLOCK__OK];
    memcpy(l->votes, op->votes, n);
    memcpy(l->rtt, op->rtt, n * sizeof *l->rtt);
    for (size_t i = 0; i < n; i++) {
        if (op->detail[i][0] || l->detail[i][0])
            memcpy(l->detail[i], op->detail[i], sizeof l->detail[i]);
    }
}

/* What acquire attempts and extends share: record the votes, then finish
 * the lock's operation if it was cancelled or won (validity then counts from
 * this op's own start, also for an extend).  1 when finished: the lock may
 * be gone then. */
static int settle(redlock_lock *l, redlock__op *op)
{
    l->op = NULL;
    record(l, op);
    if (op->cancelled) {
        set_err(l, "%s: cancelled", op->kind->name);
        complete(l, REDLOCK_ECANCELED);
        return 1;
    }
    if (op->decision == REDLOCK__WON) {
        redlock_client *c = op->c;
        int64_t until = op->start_us + op->ttl_ms * 1000 - op->drift_us;
        /* Checked again as the result is handed over, with a margin for the
         * callback's own reading: a success always has at least 1 ms to
         * report, and no clock step since the start. */
        if (until - redlock__now(c) >= REDLOCK__MIN_VALIDITY_US + REDLOCK__HANDOVER_US &&
            op->clock_steps == c->clock_steps) {
            l->valid_until_us = until;
            l->clock_steps = op->clock_steps;
            if (op->kind == &kind_acquire)
                memcpy(l->gen, op->gen, c->n * sizeof *l->gen);
            complete(l, 0);
            return 1;
        }
        op->expired = 1;
    }
    return 0;
}

static void acquire_done(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;
    redlock_client *c = op->c;
    int code;

    if (settle(l, op))
        return;
    /* Lost: give back every node we may hold, including the slow ones. */
    release_value(c, op);
    code = redlock__failure_code(&op->tally);
    describe(l, op, code);
    if (l->busy == OP_ACQUIRE && l->attempts_left > 0) {
        int64_t delay = c->opt.retry_delay_ms, now = redlock__now(c);
        if (c->opt.retry_jitter_ms)
            delay += (int64_t)(next_random(c) % (uint64_t)(2 * c->opt.retry_jitter_ms + 1)) -
                     c->opt.retry_jitter_ms;
        if (!l->deadline_us || now + delay * 1000 < l->deadline_us) {
            l->attempts_left--;
            redlock__timer_add(c, &l->retry_timer, delay * 1000);
            return;
        }
    }
    complete(l, code);
}

static void lock_retry_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock_lock *l = arg;
    redlock_client *c = l->c;
    int rc;
    (void)fd;
    (void)what;

    redlock__enter(c);
    if (l->deadline_us && redlock__now(c) >= l->deadline_us) {
        /* The loop ran late (a long callback): no attempt starts past the
         * deadline. */
        char last[sizeof l->errstr];
        memcpy(last, l->errstr, sizeof last);
        set_err(l, "acquire: acquire_timeout_ms passed before the next attempt could start "
                   "(the event loop was late); last attempt: %.150s", last);
        complete(l, REDLOCK_ETIMEDOUT);
    } else if ((rc = attempt(l)) != 0) {
        complete(l, rc);
    }
    redlock__leave(c);
}

static void extend_done(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;
    int code;

    if (settle(l, op))
        return;
    /* Failed.  The masters that ran the extend now expire the key at most
     * ttl after its start; the others still at the old end: the validity
     * is already the smaller of the two (set when the extend started).
     * When refusals leave no quorum that may hold our value, nothing. */
    if (redlock__refused_quorum(&op->tally))
        l->valid_until_us = 0;
    code = redlock__failure_code(&op->tally);
    if (code == REDLOCK_ENOQUORUM)
        code = REDLOCK_ENOTOWNER;
    describe(l, op, code);
    complete(l, code);
}

static void release_done(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;
    int code = 0;

    record(l, op);
    l->valid_until_us = 0;
    if (op->cancelled) {
        set_err(l, "release: cancelled");
        complete(l, REDLOCK_ECANCELED);
        return;
    }
    /* Success means a quorum still held the lock until this release.  Less
     * than that: the lock had been lost (expired or taken) if refusals say
     * so, else the outcome is unknown (slow or unreachable masters). */
    if (op->tally.count[REDLOCK__OK] < op->tally.quorum) {
        code = redlock__failure_code(&op->tally);
        if (code == REDLOCK_ENOQUORUM)      /* refusals sank the quorum */
            code = REDLOCK_ENOTOWNER;
        describe(l, op, code);
    }
    complete(l, code);
}

/* Detach the lock's operation; its callback hears ECANCELED now. */
static void cancel_lock_op(redlock_lock *l)
{
    if (l->busy == OP_NONE)
        return;
    evtimer_del(&l->retry_timer);
    if (l->op) {
        if (l->busy == OP_ACQUIRE || l->busy == OP_TRY) {
            l->op->done = orphan_done;
        } else {
            l->op->done = release_ignore;
        }
        l->op->done_privdata = NULL;
        l->op = NULL;
    }
    set_err(l, "cancelled");
    complete(l, REDLOCK_ECANCELED);
}

void redlock_lock_free(redlock_lock *l)
{
    redlock_client *c;

    if (!l || l->freeing)
        return;
    l->freeing = 1;
    c = l->c;
    if (c) {
        c->depth++;
        cancel_lock_op(l);
        evtimer_del(&l->retry_timer);
        if (l->prev)
            l->prev->next = l->next;
        else
            c->locks = l->next;
        if (l->next)
            l->next->prev = l->prev;
    }
    free(l->key);
    free(l->value);
    free(l->gen);
    free(l->votes);
    free(l->rtt);
    free(l->detail);
    free(l);
    if (c)
        redlock__leave(c);
}

int redlock_lock_set_value(redlock_lock *l, const void *value, size_t len)
{
    char *v;

    if (!l || (!value && len))
        return REDLOCK_EINVAL;
    if (l->busy)
        return REDLOCK_EBUSY;
    if (!value) {
        free(l->value);
        l->value = NULL;
        l->valuelen = 0;
        l->fixed_value = 0;
        l->valid_until_us = 0;
        return 0;
    }
    if (len > 512 * 1024 * 1024)
        return REDLOCK_EINVAL;
    if (!(v = malloc(len + 1)))
        return REDLOCK_ENOMEM;
    memcpy(v, value, len);
    v[len] = '\0';
    free(l->value);
    l->value = v;
    l->valuelen = len;
    l->fixed_value = 1;
    if (l->c)
        memset(l->gen, 0, l->c->n * sizeof *l->gen);
    l->valid_until_us = 0;
    return 0;
}

const char *redlock_lock_value(const redlock_lock *l, size_t *len)
{
    if (len)
        *len = l && l->value ? l->valuelen : 0;
    return l ? l->value : NULL;
}

int64_t redlock_lock_validity(const redlock_lock *l)
{
    int64_t left;

    if (!l || !l->c || !l->valid_until_us)
        return 0;
    /* The client's time never runs back (redlock__now), so this is never
     * more than ttl - drift; a clock seen going back since the grant makes
     * the count mean nothing. */
    left = l->valid_until_us - redlock__now(l->c);
    if (l->c->clock_steps != l->clock_steps)
        return 0;
    return redlock__ms_floor(left);
}

size_t redlock_lock_nodes_ok(const redlock_lock *l)
{
    return l ? l->nodes_ok : 0;
}

const char *redlock_lock_errstr(const redlock_lock *l)
{
    return l ? l->errstr : "lock is NULL";
}

int redlock_lock_node_result(const redlock_lock *l, size_t node, redlock_node_result *out)
{
    if (!l || !out || !l->c || node >= l->c->n)
        return !l || !out ? REDLOCK_EINVAL : (!l->c ? REDLOCK_ECLOSED : REDLOCK_EINVAL);
    out->vote = l->votes[node];
    out->rtt_us = l->rtt[node];
    out->detail = l->detail[node];
    return 0;
}

const char *redlock_vote_name(int vote)
{
    static const char *const names[] = { "none", "ok", "refused", "timeout", "down", "error",
                                         "full" };
    return vote >= 0 && vote < (int)(sizeof names / sizeof names[0]) ? names[vote] : "unknown";
}

/* ---- operations ------------------------------------------------------ */

static int check_start(redlock_lock *l, redlock_cb *cb, int need_cb)
{
    if (!l)
        return REDLOCK_EINVAL;
    if (!l->c || l->c->closing) {
        set_err(l, "the lock's client was freed");
        return REDLOCK_ECLOSED;
    }
    if (need_cb && !cb) {
        set_err(l, "callback is NULL");
        return REDLOCK_EINVAL;
    }
    if (l->busy) {
        set_err(l, "an operation is already in flight on this lock");
        return REDLOCK_EBUSY;
    }
    return 0;
}

static int check_ttl(redlock_lock *l, int64_t ttl_ms)
{
    const redlock_client *c = l->c;
    if (ttl_ms <= 0 || ttl_ms > MAX_TTL_MS) {
        set_err(l, "ttl_ms must be in 1 .. 2^40");
        return REDLOCK_EINVAL;
    }
    if (ttl_ms * 1000 - redlock__drift_us(ttl_ms, c->opt.drift_factor, c->opt.drift_min_ms) <
        REDLOCK__MIN_VALIDITY_US) {
        set_err(l, "ttl_ms %lld leaves less than 1 ms of validity after the clock drift "
                   "allowance", (long long)ttl_ms);
        return REDLOCK_EINVAL;
    }
    return 0;
}

/* Start an op from a public call.  Starting may (re)connect a node and so
 * call the application's node_cb; the bracket keeps the client alive even if
 * that callback frees it. */
static void start(redlock__op *op, redlock__op_done *done, void *privdata)
{
    redlock_client *c = op->c;
    redlock__enter(c);
    redlock__op_start(op, done, privdata);
    redlock__leave(c);
}

static int start_acquire(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd, int try)
{
    redlock_client *c;
    int64_t left;
    int rc;

    if ((rc = check_start(l, cb, 1)) != 0 || (rc = check_ttl(l, ttl_ms)) != 0)
        return rc;
    if ((left = redlock_lock_validity(l)) > 0) {
        /* A new value would orphan the held key (and be refused by it). */
        set_err(l, "acquire: the lock is already held (%lld ms left): extend or release it",
                (long long)left);
        return REDLOCK_EBUSY;
    }
    c = l->c;
    l->busy = try ? OP_TRY : OP_ACQUIRE;
    l->ttl_ms = ttl_ms;
    l->valid_until_us = 0;
    l->nodes_ok = 0;
    memset(l->gen, 0, c->n * sizeof *l->gen);
    l->attempts_left = try ? 0 : c->opt.retry_count;
    /* 0 and anything past 2^40 ms (35 years; INT64_MAX is a natural "no
     * limit") mean no deadline; below that the microseconds cannot overflow */
    l->deadline_us = c->opt.acquire_timeout_ms && c->opt.acquire_timeout_ms <= MAX_TTL_MS && !try
                     ? redlock__add_sat(redlock__now(c), c->opt.acquire_timeout_ms * 1000) : 0;
    l->cb = cb;
    l->privdata = pd;
    redlock__enter(c);      /* a node_cb run from here cannot free c under us */
    if ((rc = attempt(l)) != 0) {
        l->busy = OP_NONE;
        l->cb = NULL;
        l->privdata = NULL;
    }
    redlock__leave(c);
    return rc;
}

int redlock_acquire_async(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    return start_acquire(l, ttl_ms, cb, pd, 0);
}

int redlock_try_acquire_async(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    return start_acquire(l, ttl_ms, cb, pd, 1);
}

/* Extend and release: one op on the lock's current value. */
static int start_on_value(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                          enum lock_op busy, redlock__op_done *done, redlock_cb *cb, void *pd)
{
    redlock__op *op = redlock__op_new(l->c, kind, l->key, l->keylen, l->value, l->valuelen,
                                      ttl_ms);
    if (!op)
        return REDLOCK_ENOMEM;
    if (kind == &kind_release)      /* owed where the winning SET went */
        memcpy(op->gen, l->gen, l->c->n * sizeof *op->gen);
    l->busy = busy;
    l->op = op;
    l->cb = cb;
    l->privdata = pd;
    start(op, done, l);
    return 0;
}

int redlock_extend_async(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    int rc;

    if ((rc = check_start(l, cb, 1)) != 0 || (rc = check_ttl(l, ttl_ms)) != 0)
        return rc;
    if (redlock_lock_validity(l) <= 0 && !l->fixed_value) {
        set_err(l, "extend: the lock is not held (expired or never acquired)");
        return REDLOCK_ENOTOWNER;
    }
    if (!l->value) {
        set_err(l, "extend: the lock has no value");
        return REDLOCK_EINVAL;
    }
    {
        /* From now on masters may run the new PEXPIRE: the key lives at
         * most ttl after this moment on those, at the old end on the
         * others, so the validity is the smaller of the two until the
         * extend is decided (a shorter ttl shortens it at once). */
        redlock_client *c = l->c;
        int64_t bound = redlock__now(c) + ttl_ms * 1000 -
                        redlock__drift_us(ttl_ms, c->opt.drift_factor, c->opt.drift_min_ms);
        if (l->valid_until_us && bound < l->valid_until_us)
            l->valid_until_us = bound;  /* (0: a handed-over value, never known) */
    }
    return start_on_value(l, &kind_extend, ttl_ms, OP_EXTEND, extend_done, cb, pd);
}

int redlock_release_async(redlock_lock *l, redlock_cb *cb, void *pd)
{
    int rc;

    if ((rc = check_start(l, cb, 0)) != 0)
        return rc;
    if (!l->value) {
        set_err(l, "release: the lock has no value (never acquired)");
        return REDLOCK_EINVAL;
    }
    l->valid_until_us = 0;      /* masters start deleting it now */
    return start_on_value(l, &kind_release, 0, OP_RELEASE, release_done, cb, pd);
}

/* ---- blocking wrappers ------------------------------------------------ */

struct sync_wait {
    int done;
    int status;
};

static void sync_cb(redlock_lock *l, int status, void *privdata)
{
    struct sync_wait *w = privdata;
    (void)l;
    w->done = 1;
    w->status = status;
}

static int blocking(redlock_lock *l, int rc, struct sync_wait *w)
{
    if (rc != 0)
        return rc;
    while (!w->done)
        event_base_loop(l->c->base, EVLOOP_ONCE);
    /* One more non-blocking turn writes out what the outcome queued (the
     * releases after a lost attempt) instead of holding it until the next
     * call. */
    if (l->c)
        event_base_loop(l->c->base, EVLOOP_NONBLOCK);
    return w->status;
}

static int check_blocking(redlock_lock *l)
{
    if (!l)
        return REDLOCK_EINVAL;
    if (l->c && !l->c->own_base) {
        set_err(l, "blocking calls need a client created without an event base");
        return REDLOCK_EINVAL;
    }
    if (l->c && l->c->depth) {
        set_err(l, "blocking calls cannot be made from a callback");
        return REDLOCK_EINVAL;
    }
    return 0;
}

int redlock_acquire(redlock_lock *l, int64_t ttl_ms)
{
    struct sync_wait w = { 0, 0 };
    int rc = check_blocking(l);
    return rc ? rc : blocking(l, redlock_acquire_async(l, ttl_ms, sync_cb, &w), &w);
}

int redlock_try_acquire(redlock_lock *l, int64_t ttl_ms)
{
    struct sync_wait w = { 0, 0 };
    int rc = check_blocking(l);
    return rc ? rc : blocking(l, redlock_try_acquire_async(l, ttl_ms, sync_cb, &w), &w);
}

int redlock_extend(redlock_lock *l, int64_t ttl_ms)
{
    struct sync_wait w = { 0, 0 };
    int rc = check_blocking(l);
    return rc ? rc : blocking(l, redlock_extend_async(l, ttl_ms, sync_cb, &w), &w);
}

int redlock_release(redlock_lock *l)
{
    struct sync_wait w = { 0, 0 };
    int rc = check_blocking(l);
    return rc ? rc : blocking(l, redlock_release_async(l, sync_cb, &w), &w);
}

/* ---- misc ------------------------------------------------------------- */

const char *redlock_strerror(int code)
{
    switch (code) {
    case REDLOCK_OK: return "success";
    case REDLOCK_EINVAL: return "invalid argument";
    case REDLOCK_ENOQUORUM: return "no quorum: the lock is held elsewhere";
    case REDLOCK_ETIMEDOUT: return "timed out";
    case REDLOCK_ECANCELED: return "operation cancelled";
    case REDLOCK_ENOTOWNER: return "not the owner: the lock expired or is held by another";
    case REDLOCK_ENOMEM: return "out of memory";
    case REDLOCK_ECONNECT: return "masters unreachable";
    case REDLOCK_EBUSY: return "an operation is already in flight on this lock";
    case REDLOCK_ESERVER: return "masters answered with errors";
    case REDLOCK_ECLOSED: return "the client was freed";
    case REDLOCK_ESYSTEM: return "system call failed";
    case REDLOCK_EFULL: return "request queues full (max_pending)";
    default: return "unknown error code";
    }
}

const char *redlock_version(void)
{
#define STR2(x) #x
#define STR(x) STR2(x)
    return STR(REDLOCK_VERSION_MAJOR) "." STR(REDLOCK_VERSION_MINOR) "." STR(REDLOCK_VERSION_PATCH);
}
