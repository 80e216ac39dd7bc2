/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fanout.c -- one operation: a command to every master at once, one vote
 * per master, decided by quorum.c the moment the outcome is known.
 *
 *   op_start ──▶ master 0 ─┐   replies, failures and the timer turn PENDING
 *            ──▶ master 1  ├─  votes into OK / REFUSED / TIMEOUT / DOWN /
 *            ──▶ master 2 ─┘   ERROR / FULL; after each one quorum.c is asked.
 *
 *   timer: start + min(node timeout, validity left, caller's deadline);
 *          when it fires every vote still pending becomes TIMEOUT.
 *
 * The operation's kind (mutex.c, probe.c, ...) says what is sent (any keys
 * and arguments, the same command for all or one per master), how a reply
 * votes (and what value it leaves), and which rule decides; this file
 * knows no command.
 *
 * Lifetime: an op is reference counted.  One reference until its result is
 * delivered, one per request still queued on a connection; so a reply
 * arriving after the decision (a slow master) still finds its op and is
 * counted (and, for a release, handed to its lock: lock/operation.c),
 * and never confuses a later operation.  Dead ops go back to a per-fleet
 * pool with their buffers, so the steady state allocates nothing.
 *
 * A master behind (its connection's window full) holds requests in the
 * client; those still there when their op is decided are dropped unless
 * something is owed there (moot_unsent), so a master that falls behind
 * for good costs a bounded queue, and gets what is still undecided or
 * owed when it asks for more.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fanout/fanout.h"

static void op_timer_cb(evutil_socket_t fd, short what, void *arg);
static void op_reply(void *privdata, size_t node, const redlock__reply *r, const char *why);
static void op_first(void *privdata, size_t node, const redlock__reply *r, const char *why);

static void op_destroy(redlock__op *op)
{
    redlock__buf_free(&op->data);
    redlock__buf_free(&op->cmd);
    free(op->items);
    free(op->rtt);
    free(op->detail);
    free(op);
}

/* Every op that dies goes back to the pool; the client's trimmer frees
 * what a burst (masters that stalled while operations kept starting) left
 * (redlock__op_pool_trim). */
static void pool_put(redlock__op *op)
{
    redlock__fleet *f = op->f;

    if (op->kept)
        evtimer_del(&op->timer);
    f->pool.alive--;
    op->next_free = f->free_ops;
    f->free_ops = op;
    if (++f->pool.nfree > REDLOCK__POOL_MAX)
        redlock__trim_soon(f->trim, f->loop);
}

static redlock__op *pool_get(redlock__fleet *f)
{
    redlock__op *op = f->free_ops;
    size_t n = f->n;

    if (op) {
        f->free_ops = op->next_free;
        f->pool.nfree--;
        redlock__pool_took(&f->pool);
        return op;
    }
    if (!(op = calloc(1, sizeof *op)))
        return NULL;
    /* the per-node numbers in one block, those zeroed by redlock__op_new
     * (value, gen, the four flag arrays) after rtt, then seq; the texts in
     * another */
    op->rtt = malloc(n * (2 * sizeof *op->rtt + sizeof *op->gen + 4 + sizeof *op->seq));
    op->detail = malloc(n * sizeof *op->detail);
    if (!op->rtt || !op->detail) {
        free(op->rtt);
        free(op->detail);
        free(op);
        return NULL;
    }
    op->value = op->rtt + n;
    op->gen = (uint32_t *)(op->value + n);
    op->votes = (unsigned char *)(op->gen + n);
    op->evaled = op->votes + n;
    op->mark = op->votes + 2 * n;
    op->first = op->votes + 3 * n;
    op->seq = (uint32_t *)(op->votes + 4 * n);
    op->err_node = 0;   /* (the texts are not cleared yet) */
    op->f = f;
    evtimer_assign(&op->timer, f->loop->base, op_timer_cb, op);
    redlock__pool_took(&f->pool);
    return op;
}

/* Copy the keys and arguments into the op. */
static int take_items(redlock__op *op, const redlock__op_args *a)
{
    size_t k = a->nkeys + a->nargs, total = 0;

    if (k > op->items_cap) {
        redlock__item *it = realloc(op->items, k * sizeof *it);
        if (!it)
            return REDLOCK_ENOMEM;
        op->items = it;
        op->items_cap = k;
    }
    for (size_t i = 0; i < k; i++)
        total += a->len[i];
    op->data.len = 0;
    if (redlock__buf_reserve(&op->data, total) != 0)
        return REDLOCK_ENOMEM;
    for (size_t i = 0; i < k; i++) {
        size_t len = a->len[i];
        op->items[i].off = op->data.len;
        op->items[i].len = len;
        if (len)        /* an empty item may have no pointer */
            memcpy(op->data.p + op->data.len, a->item[i], len);
        op->data.len += len;
    }
    op->nkeys = a->nkeys;
    op->nargs = a->nargs;
    return 0;
}

redlock__op *redlock__op_new(redlock__fleet *f, const redlock__op_kind *kind,
                             const redlock__op_args *a)
{
    redlock__op *op = pool_get(f);

    if (!op)
        return NULL;
    op->kind = kind;
    op->live.next = op->live.prev = NULL;
    op->refs = 1;
    op->decided = op->starting = op->deferred = op->cancelled = op->expired = op->stepped =
        op->jumped = 0;
    op->full_wait = op->rearmed = op->kept = 0;
    op->nmoot = 0;
    op->may_wait = 0;
    op->decision = REDLOCK__UNDECIDED;
    op->lead_node = 0;
    op->ttl_ms = a->ttl_ms;
    op->drift_us = a->drift_us;
    op->limit_us = a->limit_us;
    op->done = NULL;
    op->after = NULL;
    /* texts are written only with err_node or noted set: an op that had
     * none has none to clear */
    if (op->err_node != SIZE_MAX || op->noted)
        for (size_t i = 0; i < f->n; i++)
            op->detail[i][0] = '\0';
    op->err_node = SIZE_MAX;
    op->noted = 0;
    memset(op->rtt, 0xff, f->n * sizeof *op->rtt);     /* -1 */
    memset(op->value, 0, f->n * (sizeof *op->value + sizeof *op->gen + 4));
    op->cmd.len = 0;
    if (redlock__tally_init(&op->tally, (unsigned)f->n,
                            a->quorum && kind->rule.kind == REDLOCK__RULE_MAJORITY
                                ? (redlock__rule){ REDLOCK__RULE_COUNT, a->quorum } : kind->rule) != 0 ||
        take_items(op, a) != 0 ||
        (!(kind->flags & REDLOCK__KIND_PER_NODE) && kind->encode(op, SIZE_MAX, &op->cmd, 0) != 0)) {
        op->refs = 0;
        pool_put(op);
        return NULL;
    }
    return op;
}

int64_t redlock__op_validity_us(const redlock__op *op, int64_t now_us)
{
    if (!op->ttl_ms)    /* no ttl: only the votes matter */
        return INT64_MAX;
    return redlock__validity_us(op->start_us, now_us, op->ttl_ms, op->drift_us);
}

static void vote(redlock__op *op, size_t node, enum redlock__vote v, const char *why,
                 int64_t now);

/* At the decision: a request that still waits to leave (its master is
 * behind: conn.c's window) leaves only where something is owed.  A
 * write's does not (nothing left there to roll back: like a master that
 * refused it for a full queue), nor an undo's where no write of ours went
 * (gen 0); an undo of a write that went does. */
static void moot_unsent(redlock__op *op)
{
    const int undoes = (op->kind->flags & REDLOCK__KIND_UNDOES) != 0;
    const int counted = !(op->kind->flags & REDLOCK__KIND_PROBE);

    for (size_t i = 0; i < op->f->n; i++) {
        redlock__master *m = &op->f->masters[i];
        unsigned char mk = op->mark[i];
        int voted;
        /* (inside redlock__op_start every request queued is still unsent;
         * later only one held back may be) */
        if ((mk & (REDLOCK__MARK_QUEUED | REDLOCK__MARK_MOOT)) != REDLOCK__MARK_QUEUED ||
            (!op->starting && !((mk & REDLOCK__MARK_HELD) && redlock__master_unsent(m, op->seq[i]))) ||
            (undoes && op->gen[i]))
            continue;
        op->mark[i] |= REDLOCK__MARK_MOOT;
        op->gen[i] = 0;
        voted = op->votes[i] != REDLOCK__PENDING;
        op->nmoot += !voted;
        redlock__vote_moot(m, &op->mark[i], counted, voted);
    }
}

/* ... and their votes, once the outcome is delivered (they changed
 * nothing in it): not sent. */
static void moot_votes(redlock__op *op)
{
    op->nmoot = 0;
    op->may_wait = 0;
    for (size_t i = 0; i < op->f->n; i++)
        if ((op->mark[i] & REDLOCK__MARK_MOOT) && op->votes[i] == REDLOCK__PENDING)
            vote(op, i, REDLOCK__FULL, "not sent: decided while the master was behind", 0);
}

static void deliver(redlock__op *op)
{
    redlock__list_del(&op->live);
    if (op->done)
        op->done(op, op->done_privdata);
    if (op->nmoot)
        moot_votes(op);
    redlock__op_unref(op);
}

static void decide(redlock__op *op, enum redlock__decision d)
{
    op->decided = 1;
    op->decision = d;
    /* (requests leave in the turn they were made, unless held back) */
    if (op->may_wait || op->starting)
        moot_unsent(op);
    if (op->full_wait && !op->rearmed && !op->starting && op->f->node_timeout_tv) {
        /* It fires when a follower's would (op_follow): kept for it, a
         * release's late replies cost no timer of their own.  Unfollowed,
         * it does nothing, and goes with the op. */
        op->kept = 1;
        deliver(op);
        return;
    }
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
    int64_t left = INT64_MAX;
    enum redlock__decision d;

    if (op->decided)
        return;
    if (op->ttl_ms)
        left = redlock__op_validity_us(op, now ? now : redlock__now(op->f->loop));
    d = redlock__decide(&op->tally, left);
    if (d == REDLOCK__UNDECIDED)
        return;
    if (left < REDLOCK__MIN_VALIDITY_US)
        op->expired = 1;
    decide(op, d);
}

void redlock__op_refusal(redlock__op *op, size_t node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(op->detail[node], sizeof op->detail[node], fmt, ap);
    va_end(ap);
    if (op->err_node == SIZE_MAX)
        op->err_node = node;
}

/* Node's OK is no vote when its server answered already under another
 * address (the same run_id: guard.c): it is the twin of a lower-numbered
 * node, or a twin of it said OK first (before both run_ids were known). */
static int twin_answered(const redlock__op *op, size_t node, const char **why)
{
    redlock__master *all = op->f->masters;
    size_t other = all[node].twin_of;

    for (size_t j = 0; j < op->f->n && other == node; j++)
        if (j != node && all[j].twin_of == node && op->votes[j] == REDLOCK__OK)
            other = j;
    if (other == node)
        return 0;
    *why = redlock__guard_twin_why(&all[node], other);
    return 1;
}

static void vote(redlock__op *op, size_t node, enum redlock__vote v, const char *why,
                 int64_t now)
{
    int late = op->decided;

    if (op->votes[node] != REDLOCK__PENDING)
        return;     /* late: this node already timed out or failed */
    /* One server, one vote, whatever the op (a probe is none). */
    if (v == REDLOCK__OK && op->f->twins && op->f->masters[node].twins &&
        !(op->kind->flags & REDLOCK__KIND_PROBE) && twin_answered(op, node, &why))
        v = REDLOCK__UNCOUNTED;
    /* An OK to an acquire or extend counts only when the guards trust the
     * master (guard.c): restarted, clock jumped, strict configuration. */
    if (v == REDLOCK__OK && op->ttl_ms && !(op->kind->flags & REDLOCK__KIND_UNDOES)) {
        if (!now)
            now = redlock__now(op->f->loop);
        if (!redlock__vote_counts(&op->f->masters[node], now, &why))
            v = REDLOCK__UNCOUNTED;
    }
    op->votes[node] = (unsigned char)v;
    redlock__tally_set(&op->tally, REDLOCK__PENDING, v);
    if (!(op->kind->flags & REDLOCK__KIND_PROBE))
        redlock__master_count(&op->f->masters[node], v, op->rtt[node], op->full_wait,
                              op->mark[node] & REDLOCK__MARK_LATE);
    if (why) {
        snprintf(op->detail[node], sizeof op->detail[node], "%s", why);
        if (v == REDLOCK__OK)
            op->noted = 1;      /* why it counts: no failure */
        else if (op->err_node == SIZE_MAX)
            op->err_node = node;
    }
    check(op, now);
    if (late && op->after)
        op->after(op, op->after_privdata);
}

/* What every request of op shares (its slot's callback, its start, what
 * the master may do with it), filled in once before it is sent anywhere. */
static void prepare_req(redlock__op *op)
{
    unsigned flags = op->kind->flags;
    redlock__req *req = &op->req;

    memset(req, 0, sizeof *req);
    req->slot.fn = op_reply;
    req->slot.privdata = op;
    req->since_us = op->start_us;
    req->never_full = (flags & REDLOCK__KIND_UNDOES) != 0 && !REDLOCK__MUTANT(RELEASE_FULL);
    req->quiet = (flags & REDLOCK__KIND_PROBE) != 0;
    /* an acquire or extend on a cluster vote: on its replicas too, when
     * asked (a plain master ignores it) */
    req->replicate = op->f->net->replica_acks && op->ttl_ms &&
                     !(flags & (REDLOCK__KIND_UNDOES | REDLOCK__KIND_PROBE));
    /* a cluster vote sends it to its key's slot (one slot per resource:
     * docs/kinds.md); a fleet without clusters pays nothing */
    op->hslot = REDLOCK__SLOTS;     /* no key: the vote's own connection */
    if (op->f->clusters && op->nkeys) {
        size_t len;
        const char *key = redlock__op_item(op, 0, &len);
        op->hslot = redlock__keyslot(key, len);
    }
    if (op->kind->classify_first) {
        memset(&op->lead, 0, sizeof op->lead);
        op->lead.fn = op_first;
        op->lead.privdata = op;
        req->lead = &op->lead;
        req->nlead = op->kind->leads ? op->kind->leads(op)
                                     : op->kind->nlead ? op->kind->nlead : 1;
    }
}

/* A request that cannot leave: an undo is owed to that master. */
static void undelivered(redlock__op *op, size_t node)
{
    if ((op->kind->flags & REDLOCK__KIND_UNDOES) && op->gen[node] && !op->f->closing) {
        redlock__buf b = { 0 };
        if (op->kind->encode(op, node, &b, 1) == 0)
            redlock__vote_undo(&op->f->masters[node], op->gen[node], &b);
        redlock__buf_free(&b);
    }
}

/* Send op's request (bytes) to one node; its vote comes at once if it
 * cannot be sent. */
static inline __attribute__((always_inline)) void send_to(redlock__op *op, size_t node,
                                                       const redlock__buf *bytes)
{
    redlock__req *req = &op->req;
    unsigned flags = op->kind->flags;
    const char *why = NULL;
    int v;

    /* the request's own part: which node, and the connection it left on
     * (a write) or the one to kill first (an undo) */
    req->slot.tag = node;
    req->slot.mark = &op->mark[node];
    op->lead.tag = node;        /* (copied into the queue: one for all nodes) */
    req->kill_gen = (flags & REDLOCK__KIND_UNDOES) ? op->gen[node] : 0;
    req->gen_out = (flags & REDLOCK__KIND_WRITES) ? &op->gen[node] : NULL;
    op->refs++;
    v = redlock__vote_send(&op->f->masters[node], op->hslot, bytes->p, bytes->len, req, &why);
    if (v == 0) {
        redlock__master *m = &op->f->masters[node];
        op->mark[node] |= REDLOCK__MARK_QUEUED;    /* (a dropped request is never resent) */
        if (redlock__vote_holds(m)) {
            op->mark[node] |= REDLOCK__MARK_HELD;
            op->seq[node] = redlock__master_last_seq(m);
            op->may_wait = 1;
        }
    } else {
        op->refs--;
        if (v == REDLOCK__DOWN)
            undelivered(op, node);
        vote(op, node, (enum redlock__vote)v, why, 0);
    }
}

/* A node that is the same server as a lower-numbered one, which gets the
 * request: it votes at once, not sent (a release still goes where a write
 * went before that was known).  1 when so. */
static int twin_skipped(redlock__op *op, size_t node)
{
    redlock__master *m = &op->f->masters[node];

    if (m->twin_of == node || (op->kind->flags & REDLOCK__KIND_PROBE) || op->gen[node])
        return 0;
    vote(op, node, REDLOCK__UNCOUNTED, redlock__guard_twin_why(m, m->twin_of), 0);
    return 1;
}

/* How long the op's timer waits from `now`: the node timeout, or less when
 * the validity or the caller's deadline runs out first. */
static inline int64_t op_wait_us(const redlock__op *op, int64_t now)
{
    int64_t wait_us = op->f->node_timeout_us;
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
    redlock__fleet *f = op->f;
    int64_t now = redlock__now(f->loop), wait_us;
    redlock__buf one = { 0 };
    const size_t twins = f->twins;      /* 0 in the usual case */

    op->done = done;
    op->done_privdata = privdata;
    op->start_us = now;
    /* the guards' automatic window: the largest ttl in use */
    if (op->ttl_ms > f->net->max_ttl_ms && !(op->kind->flags & REDLOCK__KIND_UNDOES))
        f->net->max_ttl_ms = op->ttl_ms;
    op->clock_steps = f->loop->clock_steps;
    op->master_jumps = f->loop->master_jumps;
    prepare_req(op);
    redlock__list_add(&f->live, &op->live);

    op->starting = 1;
    /* from the lead node on, round (a release writes first to the master
     * whose announcement hands the lock on: announce.c) */
    for (size_t k = 0, n = f->n, i = op->lead_node < n ? op->lead_node : 0,
                per_node = op->kind->flags & REDLOCK__KIND_PER_NODE;
         k < n && !op->decided; k++, i = i + 1 < n ? i + 1 : 0) {
        if (twins && twin_skipped(op, i))
            continue;
        if (per_node) {
            int rc;
            one.len = 0;
            if ((rc = op->kind->encode(op, i, &one, 0)) != 0) {
                if (rc == REDLOCK__ENCODE_SKIP)
                    vote(op, i, REDLOCK__OK, NULL, now);
                else
                    vote(op, i, REDLOCK__ERROR, "out of memory", now);
                continue;
            }
            send_to(op, i, &one);
        } else {
            send_to(op, i, &op->cmd);
        }
    }
    if (one.p)      /* (a kind that encodes per node) */
        redlock__buf_free(&one);
    op->starting = 0;
    if (op->decided)
        return;     /* completion already scheduled */

    wait_us = op_wait_us(op, now);
    op->full_wait = wait_us == f->node_timeout_us;
    if (op->full_wait && f->node_timeout_tv) {
        /* The usual case: libevent keeps equal timeouts in a FIFO queue,
         * O(1) to add and remove instead of a heap operation.  The wait
         * counts from now, not from the loop's cached time, which a long
         * callback leaves stale. */
        redlock__fresh_loop_time(f->loop, now);
        evtimer_add(&op->timer, f->node_timeout_tv);
        return;
    }
    redlock__timer_add(f->loop, &op->timer, wait_us);
}

static void op_timer_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__op *op = arg;
    redlock__fleet *f = op->f;
    redlock__loop *loop = f->loop;
    (void)fd;
    (void)what;

    redlock__enter(loop);
    if (op->deferred) {
        op->deferred = 0;
        deliver(op);
    } else if (op->decided) {
        op->kept = 0;
        if (!op->after) {       /* kept by decide(), never followed */
            redlock__leave(loop);
            return;
        }
        /* followed after its delivery: the silent nodes time out now */
        op->refs++;
        for (size_t i = 0; i < f->n; i++)
            if (op->votes[i] == REDLOCK__PENDING)
                vote(op, i, REDLOCK__TIMEOUT, "timed out", 0);
        redlock__op_unref(op);
    } else if (!op->decided) {
        /* Everything still pending is out of time: the node timeout, the
         * validity or the caller's deadline, whichever came first. */
        int64_t now = redlock__now(loop);
        const char *why = "timed out";
        int late = 0;
        if (op->full_wait && !op->rearmed) {
            /* Requests that left late (the application held the loop after
             * starting the op) get their node timeout from when they left:
             * once, and never past the validity or the deadline. */
            for (size_t i = 0; i < f->n; i++)
                late |= op->votes[i] == REDLOCK__PENDING && (op->mark[i] & REDLOCK__MARK_LATE);
            if (late && op_wait_us(op, now) > 0) {
                op->rearmed = 1;
                for (size_t i = 0; i < f->n && !op->decided; i++)
                    if (op->votes[i] == REDLOCK__PENDING && !(op->mark[i] & REDLOCK__MARK_LATE))
                        vote(op, i, REDLOCK__TIMEOUT, why, now);
                if (!op->decided)
                    redlock__timer_add(loop, &op->timer, op_wait_us(op, now));
                redlock__leave(loop);
                return;
            }
        }
        if (op->ttl_ms && redlock__op_validity_us(op, now) < REDLOCK__MIN_VALIDITY_US) {
            op->expired = 1;
            why = "no reply before the validity ran out";
        } else if (op->limit_us && now >= op->limit_us && !op->full_wait) {
            why = "no reply before the acquire deadline";
        }
        for (size_t i = 0; i < f->n && !op->decided; i++)
            if (op->votes[i] == REDLOCK__PENDING)
                vote(op, i, REDLOCK__TIMEOUT, why, now);
        if (!op->decided) {         /* validity ran out with a quorum */
            op->expired = 1;
            decide(op, REDLOCK__LOST);
        }
    }
    redlock__leave(loop);
}

/* A leading reply of a request of several commands: its vote waits for
 * classify(), the first one that is not OK winning.  The op is alive (the
 * request's reference is released by the last reply), and a lost
 * connection is reported by the last. */
static void op_first(void *privdata, size_t node, const redlock__reply *r, const char *why)
{
    redlock__op *op = privdata;
    (void)why;
    if (r && (op->first[node] == REDLOCK__PENDING || op->first[node] == REDLOCK__OK))
        op->first[node] = (unsigned char)op->kind->classify_first(op, node, r);
}

/* A node's answer (r), or none (r NULL: the connection was lost). */
static void op_reply(void *privdata, size_t node, const redlock__reply *r, const char *why)
{
    redlock__op *op = privdata;
    int64_t now;
    int v;

    op->mark[node] &= (unsigned char)~(REDLOCK__MARK_QUEUED | REDLOCK__MARK_HELD);
    if (!r && (op->mark[node] & REDLOCK__MARK_MOOT)) {
        redlock__op_unref(op);  /* dropped unsent: its vote came with the outcome */
        return;
    }
    if (!r) {
        undelivered(op, node);
        vote(op, node, REDLOCK__DOWN, why, 0);
        redlock__op_unref(op);
        return;
    }
    if (op->votes[node] != REDLOCK__PENDING) {
        redlock__op_unref(op);
        return;
    }
    now = redlock__now(op->f->loop);
    op->rtt[node] = now - op->start_us;     /* into the stats with the vote */
    v = op->kind->classify(op, node, r);
    /* -1: send this node the EVAL form.  Even after the decision: a node
     * that answers NOSCRIPT late must still get the extend (or release)
     * the others got.  Never a write's, whatever asked for it (a slow
     * path, or NOSCRIPT): its attempt may be undone already, and the
     * resend, arriving after the undo, would take the keys again. */
    if (v < 0 && op->decided && (op->kind->flags & REDLOCK__KIND_WRITES) &&
        !REDLOCK__MUTANT(RESEND_WRITE))
        v = r->type == REDLOCK__REPLY_ERROR ? REDLOCK__ERROR : REDLOCK__REFUSED;
    if (v < 0 && !op->evaled[node] && !op->cancelled && !op->f->closing) {
        /* NOSCRIPT: this server lost its script cache (restart, SCRIPT
         * FLUSH); or a kind's fast form (a plain command) needs its slow
         * form (a script) on this node.  Resend on this node only, as
         * EVAL, which also loads the script. */
        redlock__buf eval = { 0 };
        op->evaled[node] = 1;
        op->first[node] = REDLOCK__PENDING;     /* the resend's leading replies vote anew */
        if (op->kind->encode(op, node, &eval, 1) == 0)
            send_to(op, node, &eval);
        else
            vote(op, node, REDLOCK__ERROR, "out of memory", now);
        redlock__buf_free(&eval);
        redlock__op_unref(op);
        return;
    }
    if (v < 0 || v == REDLOCK__ERROR) {
        char text[128];
        if (r->type == REDLOCK__REPLY_ERROR)
            snprintf(text, sizeof text, "%.*s", (int)(r->len < 120 ? r->len : 120), r->str);
        else
            snprintf(text, sizeof text, "unexpected reply type %d", r->type);
        vote(op, node, REDLOCK__ERROR, text, now);
    } else {
        vote(op, node, (enum redlock__vote)v, NULL, now);
    }
    redlock__op_unref(op);
}

void redlock__op_undo(redlock__op *op)
{
    redlock__fleet *f = op->f;
    redlock__buf b = { 0 };

    if (f->closing || !op->kind->encode_undo || op->kind->encode_undo(op, &b) != 0) {
        redlock__buf_free(&b);
        return;
    }
    for (size_t i = 0; i < f->n - REDLOCK__MUTANT(ROLLBACK_SKIP); i++)
        if (op->gen[i] && !((op->kind->flags & REDLOCK__KIND_CLEAN_NO) &&
                            op->votes[i] == REDLOCK__REFUSED) &&
            !(REDLOCK__MUTANT(OK_AFTER_DECISION) && op->votes[i] != REDLOCK__OK))
            redlock__vote_undo(&f->masters[i], op->gen[i], &b);
    redlock__buf_free(&b);
}

/* The last reference went: back to the pool. */
void redlock__op_free(redlock__op *op)
{
    op->done = NULL;
    op->done_privdata = NULL;
    pool_put(op);
}

void redlock__op_follow(redlock__op *op, redlock__op_done *after, void *privdata)
{
    op->refs++;
    op->after = after;
    op->after_privdata = privdata;
    if (!op->kept) {
        int64_t left = op->start_us + op->f->node_timeout_us - redlock__now(op->f->loop);
        redlock__timer_add(op->f->loop, &op->timer, left > 0 ? left : 0);
    }
}

void redlock__op_unfollow(redlock__op *op)
{
    op->kept = 0;
    evtimer_del(&op->timer);
    op->after = NULL;
    op->after_privdata = NULL;
    redlock__op_unref(op);
}

void redlock__op_cancel(redlock__op *op)
{
    if (op->decided)
        return;
    op->cancelled = 1;
    decide(op, REDLOCK__LOST);
}

void redlock__op_cancel_all(redlock__fleet *f)
{
    /* deliver() unlinks the head each time; a done callback may start no
     * new op because the client is closing. */
    while (!redlock__list_empty(&f->live)) {
        redlock__op *op = redlock__container(f->live.next, redlock__op, live);
        evtimer_del(&op->timer);
        op->cancelled = 1;
        op->decided = 1;
        op->deferred = 0;
        if (op->decision == REDLOCK__UNDECIDED)
            op->decision = REDLOCK__LOST;
        deliver(op);
    }
}

int redlock__op_pool_trim(redlock__fleet *f)
{
    for (size_t k = redlock__pool_surplus(&f->pool, REDLOCK__POOL_MAX); k > 0; k--) {
        redlock__op *op = f->free_ops;
        f->free_ops = op->next_free;
        f->pool.nfree--;
        op_destroy(op);
    }
    return f->pool.nfree > REDLOCK__POOL_MAX;
}

void redlock__op_pool_free(redlock__fleet *f)
{
    while (f->free_ops) {
        redlock__op *op = f->free_ops;
        f->free_ops = op->next_free;
        op_destroy(op);
    }
    f->pool.nfree = 0;
}
