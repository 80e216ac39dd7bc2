/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fanout.h -- one operation over every master (fanout.c) and the
 * kinds that say what it sends and how replies vote.  The layer above is
 * lock/lock.h; never installed.
 */
#ifndef REDLOCK_FANOUT_H
#define REDLOCK_FANOUT_H

#include "cluster/cluster.h"

/* ---- fanout.c: one operation over every master ------------------------- */

typedef struct redlock__op redlock__op;

/* Pooled operations a trim keeps at least (redlock__pool: more while
 * the load uses more). */
#define REDLOCK__POOL_MAX 256

/* The masters and what every operation over them shares. */
typedef struct redlock__fleet {
    redlock__loop *loop;
    redlock__net *net;                       /* max_ttl_ms is kept here */
    redlock__master *masters;
    size_t n;
    int64_t node_timeout_us;
    const struct timeval *node_timeout_tv;   /* libevent common timeout */
    int closing;
    char sha[REDLOCK__NSCRIPTS][41];         /* SHA-1 of each script */
    redlock__op *free_ops;                   /* pooled operations */
    redlock__pool pool;                      /* their counts */
    redlock__trimmer *trim;                  /* the client's, or NULL */
    redlock__link live;                      /* undelivered operations */
    /* masters that are one server with another (the same run_id: guard.c);
     * 0 in the usual case, where fan-out pays nothing for them */
    size_t twins;
    size_t clusters;                         /* votes that are clusters */
} redlock__fleet;

/* Kind flags. */
#define REDLOCK__KIND_WRITES   1   /* note each node's connection (for undos) */
#define REDLOCK__KIND_UNDOES   2   /* never refused by max_pending; owed to a
                                    * node it could not reach; kills the
                                    * written-on connection first */
#define REDLOCK__KIND_PER_NODE 4   /* encode() is called for each node; it
                                    * may return REDLOCK__ENCODE_SKIP: that
                                    * node has nothing to do (voted OK, unsent) */
#define REDLOCK__KIND_PROBE    8   /* not counted in the lock statistics */
#define REDLOCK__ENCODE_SKIP   1
#define REDLOCK__KIND_CLEAN_NO 16  /* a refusal wrote nothing: no undo owed
                                    * where it came (SET NX's nil) */
#define REDLOCK__KIND_REGROW   32  /* an extend that re-grows the key where
                                    * it is gone, on the masters whose
                                    * op->value is 1 at the start (its kind
                                    * encodes the flag per node; fan-out
                                    * does not look at it) */

/* What an operation sends and how it judges replies. */
typedef struct redlock__op_kind {
    const char *name;                 /* "acquire", for messages */
    redlock__rule rule;
    unsigned flags;
    /* Encode the command for `node` (or for all: node == SIZE_MAX) into
     * out; `eval` asks for the EVAL form after a NOSCRIPT reply. */
    int (*encode)(const redlock__op *op, size_t node, redlock__buf *out, int eval);
    /* A node's reply: its vote, or -1 for "resend as EVAL" (NOSCRIPT; or
     * a kind whose fast form, a plain command, could not decide on this
     * node: encode(eval = 1) is then its slow form, a script; once per
     * node, op->evaled[node] says which form answered; a write's slow form
     * is not sent after the decision: the vote is then REFUSED).  It may
     * keep a value in op->value[node]. */
    int (*classify)(redlock__op *op, size_t node, const redlock__reply *r);
    /* The command that undoes this op's write on a node (or NULL). */
    int (*encode_undo)(const redlock__op *op, redlock__buf *out);
    /* A request of nlead + 1 pipelined commands (encode() writes them all;
     * its EVAL form too): each leading command's reply goes here, in
     * order, and what it returns (a vote) waits in op->first[node] for
     * classify(), which gets the last reply; the first vote that is not OK
     * stays.  NULL: one command, one reply. */
    int (*classify_first)(redlock__op *op, size_t node, const redlock__reply *r);
    unsigned nlead;                   /* 0 means 1 (with classify_first) */
    /* or this op's count of leading commands (e.g. one per key) */
    unsigned (*leads)(const redlock__op *op);
} redlock__op_kind;

/* What an operation carries: keys, then arguments, binary-safe. */
typedef struct redlock__op_args {
    size_t nkeys, nargs;
    const char *const *item;          /* nkeys + nargs pointers */
    const size_t *len;
    int64_t ttl_ms;                   /* 0: the operation has no ttl */
    int64_t drift_us;
    int64_t limit_us;                 /* absolute deadline, 0 = none */
    unsigned quorum;                  /* OK votes that win in place of a
                                       * majority rule's (a semaphore's
                                       * count); 0: the kind's rule */
} redlock__op_args;

typedef void redlock__op_done(redlock__op *op, void *privdata);

/* Bytes of one node's text: the longest a guard gives (guard.c's reasons,
 * the restart guard's the longest) fits whole. */
#define REDLOCK__DETAIL 320
_Static_assert(REDLOCK__DETAIL >= sizeof "not counted (strict): " +
                                       sizeof ((redlock__guard *)0)->config_text - 1 &&
               REDLOCK__DETAIL >= sizeof "not counted: ; counts in 18446744073709551615 ms" +
                                       sizeof ((redlock__guard *)0)->clock_text - 1 &&
               REDLOCK__DETAIL >= sizeof "not counted for 1099511627.8 s after its start (; "
                                         "counts in 1099511627776 ms): the restart guard (a "
                                         "master without appendfsync always may have lost its "
                                         "locks in a restart; docs/safety.md)" +
                                       sizeof ((redlock__guard *)0)->restart_text - 1,
               "a guard's reason fits a node's detail");

typedef struct redlock__item {
    size_t off, len;
} redlock__item;

struct redlock__op {
    redlock__fleet *f;
    const redlock__op_kind *kind;
    redlock__op *next_free;
    redlock__link live;               /* in the fleet's list until delivered */
    int refs;                         /* 1 while undelivered + 1 per queued request */
    unsigned decided : 1;
    unsigned starting : 1;            /* inside redlock__op_start */
    unsigned deferred : 1;            /* completion was deferred to the loop */
    unsigned cancelled : 1;           /* decided by redlock__op_cancel_all */
    unsigned expired : 1;             /* lost because validity ran out */
    unsigned stepped : 1;             /* ... or the clock stepped meanwhile */
    unsigned jumped : 1;              /* ... or a master's clock jumped ahead
                                       * meanwhile, its OK counted */
    unsigned full_wait : 1;           /* the timer waits the whole node timeout */
    unsigned rearmed : 1;             /* waited again for requests that left late */
    unsigned kept : 1;                /* decided, the timer still armed for the
                                       * node timeout: a follower's (op_follow) */
    unsigned noted : 1;               /* an OK vote has a text (why it counts) */
    unsigned nmoot;                   /* nodes whose request was dropped unsent
                                       * at the decision, their vote pending */
    unsigned char may_wait;           /* a request may wait past its turn (moot_unsent) */
    enum redlock__decision decision;
    size_t lead_node;                 /* written first (0): see redlock__op_start */
    int64_t start_us;
    unsigned clock_steps;             /* the loop's, at the start */
    unsigned master_jumps;            /* the loop's, at the start */
    int64_t ttl_ms;
    int64_t drift_us;
    int64_t limit_us;
    redlock__tally tally;
    struct event timer;
    redlock__op_done *done;
    void *done_privdata;
    /* redlock__op_follow's: after each vote that comes once delivered */
    redlock__op_done *after;
    void *after_privdata;
    redlock__req req;                 /* what its requests share (fanout.c) */
    unsigned hslot;                   /* its first key's slot (cluster votes);
                                       * REDLOCK__SLOTS: it has no key */
    redlock__slot lead;               /* a pair's first reply (classify_first) */
    /* keys and arguments, owned by the op (the lock may be freed first) */
    redlock__buf data;
    redlock__item *items;
    size_t nkeys, nargs, items_cap;
    redlock__buf cmd;                 /* the encoded command, same for all */
    size_t err_node;                  /* the first node that failed (its
                                       * detail says why), SIZE_MAX: none */
    unsigned char *votes;             /* n votes */
    unsigned char *evaled;            /* n flags: resent as EVAL once */
    unsigned char *mark;              /* n REDLOCK__MARK_* of its request */
    unsigned char *first;             /* n votes of a pair's first command */
    /* n connection serials (redlock__conn.gen): for a write, the connection
     * it left on (0: never sent); for an undo, the connection of the write
     * it undoes (0: nothing to undo there). */
    uint32_t *gen;
    uint32_t *seq;                    /* n serials of the requests queued */
    int64_t *rtt;                     /* n request-to-reply times, -1 */
    int64_t *value;                   /* n values a kind keeps, 0 (a
                                       * re-growing extend's: its input
                                       * until the reply) */
    char (*detail)[REDLOCK__DETAIL];  /* n failure texts (or why an OK
                                       * counts: a guard's), "" */
};

/* Key or argument i (keys first). */
static inline const char *redlock__op_item(const redlock__op *op, size_t i, size_t *len)
{
    *len = op->items[i].len;
    return op->data.p + op->items[i].off;
}

/* A kind's classify() says why a node refused ("held by a writer"): the
 * node's detail, and the op's first failure if it has none yet. */
__attribute__((format(printf, 3, 4)))
void redlock__op_refusal(redlock__op *op, size_t node, const char *fmt, ...);

redlock__op *redlock__op_new(redlock__fleet *f, const redlock__op_kind *kind,
                             const redlock__op_args *a);
/* Send to every node and arm the timer; `done` runs once, never inside. */
void redlock__op_start(redlock__op *op, redlock__op_done *done, void *privdata);
void redlock__op_free(redlock__op *op);
/* Drop a reference (inline: every reply drops one). */
static inline void redlock__op_unref(redlock__op *op)
{
    if (--op->refs == 0)
        redlock__op_free(op);
}
/* A delivered op's later votes (a release decided at the quorum): `after`
 * runs after each, the nodes still silent at the node timeout voting
 * TIMEOUT; holds a reference until redlock__op_unfollow. */
void redlock__op_follow(redlock__op *op, redlock__op_done *after, void *privdata);
void redlock__op_unfollow(redlock__op *op);
/* Undo what op wrote: on every node its request may have reached, but
 * those that refused it when its kind says a refusal wrote nothing. */
void redlock__op_undo(redlock__op *op);
/* Decide op now as cancelled (lost): its done runs (from the loop when
 * inside redlock__op_start), and no write of it is sent again after. */
void redlock__op_cancel(redlock__op *op);
/* The fleet is going away: decide every live op as cancelled. */
void redlock__op_cancel_all(redlock__fleet *f);
void redlock__op_pool_free(redlock__fleet *f);
/* Free what the pool holds beyond the last period's use; 1 while it still
 * holds more than REDLOCK__POOL_MAX (trim again). */
int redlock__op_pool_trim(redlock__fleet *f);
int64_t redlock__op_validity_us(const redlock__op *op, int64_t now_us);

#endif /* REDLOCK_FANOUT_H */
