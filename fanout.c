/* fanout.c -- one operation: the same command to every node at once, one
 * vote per node, decided by quorum.c the moment the outcome is known.
 *
 *   op_start ──▶ node 0 ─┐   replies, failures and the timer turn PENDING
 *            ──▶ node 1  ├─  votes into OK / REFUSED / TIMEOUT / DOWN /
 *            ──▶ node 2 ─┘   ERROR; after each one quorum.c is asked.
 *
 *   timer: start + min(node timeout, validity left, caller's deadline);
 *          when it fires every vote still pending becomes TIMEOUT.
 *
 * The kind of operation (which command, how a reply votes, wait for a
 * quorum or for everyone) is a redlock__op_kind, so acquire, extend,
 * release and later scripts all share this code.
 *
 * Lifetime: an op is reference counted.  One reference until its result is
 * delivered, one per request still queued on a node's connection; so a
 * reply arriving after the decision (a slow node) still finds its op and is
 * simply counted, and never confuses a later operation.  Dead ops go back
 * to a per-client pool with their buffers, so the steady state allocates
 * nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>
#include "redlock_private.h"

static void op_timer_cb(evutil_socket_t fd, short what, void *arg);

redlock__op *redlock__op_new(redlock_client *c, const redlock__op_kind *kind,
                             const void *key, size_t keylen,
                             const void *value, size_t valuelen, int64_t ttl_ms)
{
    redlock__op *op = c->free_ops;

    if (op) {
        c->free_ops = op->next;
    } else {
        if (!(op = calloc(1, sizeof *op)))
            return NULL;
        op->votes = calloc(3, c->n);
        op->rtt = malloc(c->n * sizeof *op->rtt);
        op->detail = malloc(c->n * sizeof *op->detail);
        op->gen = malloc(c->n * sizeof *op->gen);
        if (!op->votes || !op->rtt || !op->detail || !op->gen) {
            free(op->votes);
            free(op->rtt);
            free(op->detail);
            free(op->gen);
            free(op);
            return NULL;
        }
        op->evaled = op->votes + c->n;
        op->late = op->votes + 2 * c->n;
        op->c = c;
        evtimer_assign(&op->timer, c->base, op_timer_cb, op);
    }
    op->kind = kind;
    op->next = op->prev = NULL;
    op->refs = 1;
    op->decided = op->starting = op->deferred = op->cancelled = op->expired = 0;
    op->full_wait = op->rearmed = 0;
    op->decision = REDLOCK__UNDECIDED;
    op->ttl_ms = ttl_ms;
    op->drift_us = ttl_ms ? redlock__drift_us(ttl_ms, c->opt.drift_factor, c->opt.drift_min_ms) : 0;
    op->limit_us = 0;
    op->err[0] = '\0';
    memset(op->votes, 0, 3 * c->n);
    for (size_t i = 0; i < c->n; i++) {
        op->rtt[i] = -1;
        op->detail[i][0] = '\0';
        op->gen[i] = 0;
    }
    redlock__tally_init(&op->tally, (unsigned)c->n);
    op->data.len = op->cmd.len = 0;
    op->keylen = keylen;
    op->valuelen = valuelen;
    if (redlock__buf_reserve(&op->data, keylen + valuelen) != 0)
        goto oom;
    memcpy(op->data.p, key, keylen);
    if (valuelen)
        memcpy(op->data.p + keylen, value, valuelen);
    op->data.len = keylen + valuelen;
    if (kind->encode(op, &op->cmd, 0) != 0)
        goto oom;
    return op;
oom:
    op->refs = 0;
    op->next = c->free_ops;
    c->free_ops = op;
    return NULL;
}

int64_t redlock__op_validity_us(const redlock__op *op, int64_t now_us)
{
    if (!op->ttl_ms)    /* no ttl: only the quorum matters */
        return INT64_MAX;
    return redlock__validity_us(op->start_us, now_us, op->ttl_ms, op->drift_us);
}

static void deliver(redlock__op *op)
{
    redlock_client *c = op->c;

    /* unlink from the client's list of undelivered ops */
    if (op->prev)
        op->prev->next = op->next;
    else
        c->live_ops = op->next;
    if (op->next)
        op->next->prev = op->prev;
    op->next = op->prev = NULL;
    if (op->done)
        op->done(op, op->done_privdata);
    redlock__op_unref(op);
}

static void decide(redlock__op *op, enum redlock__decision d)
{
    op->decided = 1;
    op->decision = d;
    evtimer_del(&op->timer);
    if (op->starting) {
        /* Never call back inside the starting call: go through the loop. */
        op->deferred = 1;
        event_active(&op->timer, EV_TIMEOUT, 1);
        return;
    }
    deliver(op);
}

/* `now` may be 0: then the clock is read only if the decision needs it. */
static void check(redlock__op *op, int64_t now)
{
    enum redlock__decision d;

    if (op->decided)
        return;
    if (op->kind->wait_all) {
        if (op->tally.count[REDLOCK__PENDING] > 0)
            return;
        d = op->tally.count[REDLOCK__OK] > 0 ? REDLOCK__WON : REDLOCK__LOST;
    } else {
        int64_t left = redlock__op_validity_us(op, now ? now : redlock__now(op->c));
        d = redlock__decide(&op->tally, left);
        if (d == REDLOCK__UNDECIDED)
            return;
        if (left < REDLOCK__MIN_VALIDITY_US)
            op->expired = 1;
    }
    decide(op, d);
}

static void vote(redlock__op *op, size_t node, enum redlock__vote v, const char *why,
                 int64_t now)
{
    redlock_node_stats *st = &op->c->nodes[node].stats;

    if (op->votes[node] != REDLOCK__PENDING)
        return;     /* late: this node already timed out or failed */
    op->votes[node] = (unsigned char)v;
    redlock__tally_set(&op->tally, REDLOCK__PENDING, v);
    switch (v) {
    case REDLOCK__OK: st->oks++; break;
    case REDLOCK__REFUSED: st->refused++; break;
    case REDLOCK__TIMEOUT:
        st->timeouts++;
        /* Only a wait of the full node timeout says the node is slow; an
         * op that ran out of validity or deadline earlier does not, nor a
         * request that left late because the application held the loop. */
        if (op->full_wait && !op->late[node])
            redlock__node_timed_out(&op->c->nodes[node]);
        break;
    case REDLOCK__DOWN: st->unreachable++; break;
    case REDLOCK__FULL: break;  /* never sent: the node said nothing */
    default: st->errors++; break;
    }
    if (why) {
        snprintf(op->detail[node], sizeof op->detail[node], "%s", why);
        if (!op->err[0])
            snprintf(op->err, sizeof op->err, "node %zu (%s): %s", node,
                     op->c->nodes[node].label, why);
    }
    check(op, now);
}

/* How long the op's timer waits from `now`: the node timeout, or less when
 * the validity or the caller's deadline runs out first. */
static inline int64_t op_wait_us(const redlock__op *op, int64_t now)
{
    int64_t wait_us = op->c->opt.node_timeout_ms * 1000;
    if (op->ttl_ms) {
        int64_t left = redlock__op_validity_us(op, now);
        if (left < wait_us)
            wait_us = left;
    }
    if (op->limit_us && op->limit_us - now < wait_us)
        wait_us = op->limit_us - now;
    if (wait_us < 0)
        wait_us = 0;
    return wait_us;
}

void redlock__op_start(redlock__op *op, redlock__op_done *done, void *privdata)
{
    redlock_client *c = op->c;
    int64_t now = redlock__now(c), wait_us;

    op->done = done;
    op->done_privdata = privdata;
    op->start_us = now;
    op->clock_steps = c->clock_steps;
    op->next = c->live_ops;
    if (op->next)
        op->next->prev = op;
    c->live_ops = op;

    op->starting = 1;
    for (size_t i = 0; i < c->n && !op->decided; i++)
        redlock__node_send(&c->nodes[i], op, op->cmd.p, op->cmd.len);
    op->starting = 0;
    if (op->decided)
        return;     /* completion already scheduled */

    wait_us = op_wait_us(op, now);
    op->full_wait = wait_us == c->opt.node_timeout_ms * 1000;
    if (op->full_wait && c->node_timeout_tv) {
        /* The usual case: libevent keeps equal timeouts in a FIFO queue,
         * O(1) to add and remove instead of a heap operation.  The wait
         * counts from now, not from the loop's cached time, which a long
         * callback leaves stale. */
        redlock__fresh_loop_time(c, now);
        evtimer_add(&op->timer, c->node_timeout_tv);
        return;
    }
    redlock__timer_add(c, &op->timer, wait_us);
}

static void op_timer_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__op *op = arg;
    redlock_client *c = op->c;
    (void)fd;
    (void)what;

    redlock__enter(c);
    if (op->deferred) {
        deliver(op);
    } else if (!op->decided) {
        /* Everything still pending is out of time: the node timeout, the
         * validity or the caller's deadline, whichever came first. */
        int64_t now = redlock__now(c);
        const char *why = "timed out";
        int late = 0;
        if (op->full_wait && !op->rearmed) {
            /* Requests that left late (the application held the loop after
             * starting the op) get their node timeout from when they left:
             * once, and never past the validity or the deadline. */
            for (size_t i = 0; i < c->n; i++)
                late |= op->votes[i] == REDLOCK__PENDING && op->late[i];
            if (late && op_wait_us(op, now) > 0) {
                op->rearmed = 1;
                for (size_t i = 0; i < c->n && !op->decided; i++)
                    if (op->votes[i] == REDLOCK__PENDING && !op->late[i])
                        vote(op, i, REDLOCK__TIMEOUT, why, now);
                if (!op->decided)
                    redlock__timer_add(c, &op->timer, op_wait_us(op, now));
                redlock__leave(c);
                return;
            }
        }
        if (op->ttl_ms && redlock__op_validity_us(op, now) < REDLOCK__MIN_VALIDITY_US) {
            op->expired = 1;
            why = "no reply before the validity ran out";
        } else if (op->limit_us && now >= op->limit_us &&
                   !op->full_wait) {
            why = "no reply before the acquire deadline";
        }
        for (size_t i = 0; i < c->n && !op->decided; i++)
            if (op->votes[i] == REDLOCK__PENDING)
                vote(op, i, REDLOCK__TIMEOUT, why, now);
        if (!op->decided) {         /* validity ran out with a quorum */
            op->expired = 1;
            decide(op, REDLOCK__LOST);
        }
    }
    redlock__leave(c);
}

void redlock__op_reply(redlock__op *op, size_t node, const redlock__reply *r)
{
    int64_t now;
    int v;

    if (op->votes[node] != REDLOCK__PENDING)
        return;
    now = redlock__now(op->c);
    op->rtt[node] = now - op->start_us;
    op->c->nodes[node].stats.last_rtt_us = op->rtt[node];
    v = op->kind->classify(r);
    /* Resend even after the decision: a node that answers NOSCRIPT late
     * must still get the extend (or release) the others got. */
    if (v < 0 && !op->evaled[node] && !op->cancelled && !op->c->closing) {
        /* NOSCRIPT: this server lost its script cache (restart, SCRIPT
         * FLUSH).  Resend on this node only, as EVAL, which reloads it. */
        redlock__buf eval = { 0 };
        op->evaled[node] = 1;
        if (op->kind->encode(op, &eval, 1) == 0) {
            redlock__node_send(&op->c->nodes[node], op, eval.p, eval.len);
            redlock__buf_free(&eval);
            return;
        }
        redlock__buf_free(&eval);
        vote(op, node, REDLOCK__ERROR, "out of memory", now);
        return;
    }
    if (v < 0 || v == REDLOCK__ERROR) {
        char why[128];
        if (r->type == REDIS_REPLY_ERROR)
            snprintf(why, sizeof why, "%.*s", (int)(r->len < 120 ? r->len : 120), r->str);
        else
            snprintf(why, sizeof why, "unexpected reply type %d", r->type);
        vote(op, node, REDLOCK__ERROR, why, now);
        return;
    }
    vote(op, node, (enum redlock__vote)v, NULL, now);
}

void redlock__op_fail(redlock__op *op, size_t node, enum redlock__vote v, const char *why)
{
    vote(op, node, v, why, 0);
}

void redlock__op_undelivered(redlock__op *op, size_t node)
{
    if (op->kind->is_release && op->gen[node] && !op->c->closing)
        redlock__node_undo(&op->c->nodes[node], op->gen[node], op->data.p, op->keylen,
                           op->data.p + op->keylen, op->valuelen);
}

void redlock__op_unref(redlock__op *op)
{
    redlock_client *c = op->c;

    if (--op->refs > 0)
        return;
    op->done = NULL;
    op->done_privdata = NULL;
    op->next = c->free_ops;
    c->free_ops = op;
}

void redlock__op_cancel_all(redlock_client *c)
{
    /* deliver() unlinks the head each time; a done callback may start no
     * new op because the client is closing. */
    while (c->live_ops) {
        redlock__op *op = c->live_ops;
        evtimer_del(&op->timer);
        op->cancelled = 1;
        op->decided = 1;
        op->deferred = 0;
        if (op->decision == REDLOCK__UNDECIDED)
            op->decision = REDLOCK__LOST;
        deliver(op);
    }
}

void redlock__op_pool_free(redlock_client *c)
{
    while (c->free_ops) {
        redlock__op *op = c->free_ops;
        c->free_ops = op->next;
        redlock__buf_free(&op->data);
        redlock__buf_free(&op->cmd);
        free(op->votes);
        free(op->rtt);
        free(op->detail);
        free(op->gen);
        free(op);
    }
}
