/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* lock.h -- the lock machine: the client's state, lock families (the
 * mutex's here), lock handles and their operations, the watchdog, and the
 * wake-up of waiters (contended.c, announce.c; their shared parts are in
 * wake.h, which only this folder includes).  Never installed. */
#ifndef REDLOCK_LOCK_H
#define REDLOCK_LOCK_H

#include "fanout/fanout.h"

/* ---- kinds: one family of operations per lock kind ------------------- */

typedef struct redlock__family {
    int kind;                          /* REDLOCK_KIND_* */
    unsigned flags;                    /* REDLOCK__FAM_* */
    const redlock__op_kind *acquire;   /* its undo is the lost attempt's */
    const redlock__op_kind *extend;
    const redlock__op_kind *release;
    /* extend that re-grows the key where it is gone, for a lock the client
     * knows to be held (NULL: the family has none) */
    const redlock__op_kind *extend_regrow;
    /* fencing: an acquire whose OK votes carry the resource's counter
     * (items: key, value, counter key), and the raise of the counters to
     * the token on a quorum (items: key, value, counter key, token); NULL:
     * no fencing for this kind */
    const redlock__op_kind *acquire_fenced;
    const redlock__op_kind *fence_raise;
    /* The op of `kind` (one of the above) on lock l, with its keys and
     * arguments; `token` is the raise's.  NULL: the mutex's items (key,
     * value[, counter key[, token]]).  NULL return: out of memory. */
    redlock__op *(*op)(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                       int64_t token);
    /* Free the kind's part of a handle (l->kd); NULL: none. */
    void (*free)(redlock_lock *l);
    /* An acquire ended without the lock (cancelled, its deadline passed,
     * its attempts spent, the handle freed): take away what its attempts
     * left on the masters beyond what their undos take (the writer's mark,
     * kinds/rwlock.c).  Sent after every undo of those attempts on each
     * master's connection.  NULL: nothing to take away. */
    void (*abandon)(redlock_lock *l);
    /* An acquire attempt's votes that end the acquire at once, without
     * retries (the masters refused its arguments: a semaphore's permit
     * count): the error code, after writing why with redlock__lock_err;
     * 0: none.  NULL: never. */
    int (*fatal)(redlock_lock *l, const redlock__op *op);
    /* Its waiters' wake-up (NULL: they poll). */
    const struct redlock__wake_hook *wake;
} redlock__family;

/* How a family's waiters are woken (docs/design.md, "Many clients, one
 * lock"): a refused attempt waits on one of the lock's resources (enters
 * that resource's registry "{K}:wq", listens on "{K}:wq:<id>"); a release
 * that frees resources picks the longest waiter in each freed one's
 * registry, but only while the client knows that someone waits: else the
 * family's plain release goes, and costs what it did without waiters. */
typedef struct redlock__wake_hook {
    /* The release that picks, sent instead of the family's release while
     * someone waits.  Its items: the release's keys, the value the script
     * compares, the wake window, the picks (a byte per master), the
     * releaser's own waiter id (redlock__lock_release_wq); encoded by
     * redlock__encode_release_wq (ARGV: value, window, this master's pick,
     * id, the registry's life).  Its script runs REDLOCK__LUA_PICK_FN's
     * pick(q, role) for each registry it frees and replies 0 (not ours) or
     * 1 + the most entries a registry had (redlock__classify_release). */
    const redlock__op_kind *release_wq;
    /* 1: the release about to start frees what the waiters wait for (the
     * re-entrant lock's last hold); 0: the plain release goes.  NULL:
     * every release frees. */
    int (*frees)(const redlock_lock *l);
    /* The key of the lock's i-th resource (0: l->key), NULL past the last;
     * NULL: l->key is the only one. */
    const char *(*key)(const redlock_lock *l, size_t i, size_t *len);
    /* The resource (its index for key()) a refused attempt waits on; NULL:
     * 0.  A later refusal on another one moves the waiter there. */
    size_t (*waits_on)(const redlock_lock *l, const redlock__op *op);
    /* Its waiters' role, or 0: a wake message that names a role (its
     * pick(q, ':' .. role)) wakes only the waiters of that role; one that
     * names none wakes every waiter on the resource.  The read/write
     * lock's readers and writers: 'r', 'w'. */
    char role;
    /* 1: a waiter that wins leaves the registries at once (others hold
     * the resource with it and their releases pick: a semaphore's
     * permits); 0: it stays in them while it holds and its own release
     * takes it away (nobody else releases meanwhile). */
    int win_leaves;
} redlock__wake_hook;

/* The family's release that picks, when the client knows of waiters and
 * this release frees (else `kind` itself). */
const redlock__op_kind *redlock__wake_release_kind(redlock_lock *l, const redlock__op_kind *kind);
/* The release that picks: the family's nkeys keys and its value in
 * (item, len), then what announce.c says (redlock__wake_release); NULL:
 * out of memory. */
redlock__op *redlock__lock_release_wq(redlock_lock *l, const redlock__op_kind *kind,
                                      int64_t ttl_ms, size_t nkeys, const char *const *item,
                                      const size_t *len);
/* Encode that op for `node` with `script`. */
int redlock__encode_release_wq(const redlock__op *op, size_t node, redlock__buf *out, int eval,
                               int script);
/* Its reply (and the mutex's release's): 1 + a registry's count, 0 not ours. */
int redlock__classify_release(redlock__op *op, size_t node, const redlock__reply *r);
/* 1: the family's waiters are woken (it has a hook). */
static inline int redlock__fam_wakes(const redlock__family *fam)
{
    return fam->wake != NULL;
}

/* What the kinds share (mutex.c).  EVAL(SHA) of `script` with the op's
 * first nkeys items as KEYS, the rest as ARGV, then ttl_ms unless 0. */
int redlock__encode_eval(const redlock__op *op, redlock__buf *out, int eval, int script,
                         size_t nkeys, int64_t ttl_ms);
/* The same for a re-growing extend's `node` (REDLOCK__KIND_REGROW, encoded
 * per node): its last item is "<no><yes>", of which the master's byte goes:
 * <yes> where it may re-grow (op->value[node] 1, set before the start:
 * operation.c), else <no>. */
int redlock__encode_eval_regrow(const redlock__op *op, redlock__buf *out, int eval, int script,
                                size_t nkeys, int64_t ttl_ms, size_t node);
/* A compare-and-act script's reply: 1 acted (2: re-grew), kept in
 * op->value[node]; 0 refused; NOSCRIPT -1 (resend as EVAL); else ERROR. */
int redlock__classify_script(redlock__op *op, size_t node, const redlock__reply *r);
/* The mutex's extend, release, re-growing extend and counter raise (the
 * write lock's too: its key is a mutex's). */
extern const redlock__op_kind redlock__mutex_extend, redlock__mutex_release,
                              redlock__mutex_extend_regrow, redlock__mutex_fence_raise;
/* The mutex's release with the registry of waiters (announce.c), and the
 * registry's life on a master after its last write (its waiters renew it
 * at half that). */
#define REDLOCK__REGISTRY_LIFE_MS 20000
extern const redlock__op_kind redlock__mutex_release_wq;
/* The late pick (announce.c) on master op->lead_node only; the second
 * one, asked of another master when the first did not get there. */
extern const redlock__op_kind redlock__mutex_tell, redlock__mutex_tell_last;
/* A waiter's poll looking first: EXISTS on master op->lead_node only. */
extern const redlock__op_kind redlock__mutex_look;

/* Family flags. */
#define REDLOCK__FAM_REENTRANT 1   /* acquire while held adds a hold; a
                                    * release with holds > 1 takes one away
                                    * and keeps the lock */

extern const redlock__family redlock__mutex;      /* mutex.c; the other kinds: kinds/ */

/* The registry of waiters of the resource whose key is KEYS[1], and the
 * pick (scripts.c): a Lua function pick(q, role) that tells the longest
 * waiter in registry q (ARGV[2] the wake window, ARGV[3] this master's
 * pick, ARGV[5] the registry's life; role "" or ":<role>", the end of the
 * message) and returns 1 + the registry's count.  The releases that
 * pick begin with it. */
#define REDLOCK__LUA_REGISTRY "local q = '{' .. KEYS[1] .. '}:wq' "
#define REDLOCK__LUA_PICK_FN \
    "local function pick(q, role) " \
    "if redis.pcall('exists', q) ~= 1 then return 1 end " \
    "local n = redis.pcall('zcard', q) if type(n) ~= 'number' then return 1 end " \
    "if ARGV[3] ~= '0' then local t = redis.pcall('time') if t.err then return 1 + n end " \
    "for i = 1, 4 do local w = redis.pcall('zrange', q, 0, 0) " \
    "if type(w) ~= 'table' or type(w[1]) ~= 'string' then break end " \
    "local r = redis.pcall('publish', q .. ':' .. w[1], " \
    "ARGV[2] .. ':' .. n .. ':' .. ARGV[3] .. role) " \
    "if r ~= 0 then redis.pcall('zadd', q, 'XX', t[1] * 1000 + math.floor(t[2] / 1000) + " \
    "tonumber(ARGV[5]), w[1]) break end " \
    "redis.pcall('zrem', q, w[1]) n = n - 1 end " \
    "redis.pcall('pexpire', q, ARGV[5]) end " \
    "return 1 + n end "

/* The lock machine's scripts (scripts.c), by their numbers (floor.h) */
extern const char redlock__lua_release[], redlock__lua_extend[], redlock__lua_regrow[],
                  redlock__lua_fence_raise[], redlock__lua_wait[], redlock__lua_release_wq[],
                  redlock__lua_tell[];

/* ---- metrics.c: the client's histograms and operation counts ------------ */

/* Outcomes of an acquire (redlock.h, redlock_client_metrics) */
enum { REDLOCK__ACQ_ACQUIRED, REDLOCK__ACQ_CONFLICT, REDLOCK__ACQ_UNAVAILABLE,
       REDLOCK__ACQ_ERROR, REDLOCK__ACQ_CANCELLED, REDLOCK__ACQ_OUTCOMES };
/* ... of a hold */
enum { REDLOCK__HOLD_RELEASED, REDLOCK__HOLD_LOST, REDLOCK__HOLD_EXPIRED, REDLOCK__HOLD_FREED,
       REDLOCK__HOLD_UNKNOWN, REDLOCK__HOLD_OUTCOMES };
/* ... of an extend or a release */
enum { REDLOCK__OPS_OK, REDLOCK__OPS_REFUSED, REDLOCK__OPS_UNAVAILABLE, REDLOCK__OPS_ERROR,
       REDLOCK__OPS_CANCELLED, REDLOCK__OPS_OUTCOMES };
#define REDLOCK__KINDS 6                /* REDLOCK_KIND_* */
#define REDLOCK__BOUNDS 17              /* the buckets' upper bounds; +Inf after */
extern const int64_t redlock__bound_us[REDLOCK__BOUNDS];
/* The first bucket whose bound is >= 2^k: a value's bucket is at most two
 * steps from there (the bounds grow by 2 to 5 times). */
extern const unsigned char redlock__bucket_from_log2[64];

/* Per bucket, not cumulative (the text adds them up). */
typedef struct redlock__hist {
    uint64_t n[REDLOCK__BOUNDS + 1];
    int64_t sum_us;
} redlock__hist;

typedef struct redlock__metrics {
    redlock__hist acquire[REDLOCK__KINDS][REDLOCK__ACQ_OUTCOMES];
    redlock__hist wait[REDLOCK__KINDS][REDLOCK__ACQ_OUTCOMES];
    redlock__hist hold[REDLOCK__KINDS][REDLOCK__HOLD_OUTCOMES];
    uint64_t extends[REDLOCK__KINDS][REDLOCK__OPS_OUTCOMES];
    uint64_t releases[REDLOCK__KINDS][REDLOCK__OPS_OUTCOMES];
} redlock__metrics;

static inline void redlock__hist_add(redlock__hist *h, int64_t us)
{
    size_t i;

    if (us < 0)
        us = 0;
    i = redlock__bucket_from_log2[63 - __builtin_clzll((unsigned long long)us | 1)];
    while (i < REDLOCK__BOUNDS && us > redlock__bound_us[i])
        i++;
    h->n[i]++;
    h->sum_us += us;
}

/* The lock's operation in flight completes with `status` (l->c set). */
void redlock__metrics_done(redlock_lock *l, int status);
/* The lock's hold (if open) ended at end_us (<= 0: now) with `outcome`. */
void redlock__metrics_hold_end(redlock_lock *l, int64_t end_us, int outcome);
/* The lock is freed, or its client (c) is: its operation in flight is
 * cancelled and its hold ends. */
void redlock__metrics_gone(redlock_client *c, redlock_lock *l);

/* ---- redlock.c: the client ------------------------------------------- */

struct redlock_client {
    redlock__loop loop;              /* first: the floor */
    redlock__net net;
    redlock__fleet fleet;
    int own_base;
    redlock_options opt;             /* strings not kept (see below) */
    char *key_prefix;
    size_t prefixlen;
    char *tls_server_name;
    redlock__link locks;             /* every live lock handle */
    int in_node_cb;                  /* inside the application's node_cb */
    redlock__random rnd;             /* lock values, retry jitter (floor/random.c) */
    struct event probe_timer;        /* the periodic TIME probe */
    int probing;                     /* a probe is in flight */
    char errstr[256];                /* why a constructor refused its arguments */
    char *errtext;                   /* why wait_connected failed, sized to
                                      * it; read while errstr is "" */
    struct redlock__wake *wake;      /* contended resources (contended.c, announce.c), or NULL */
    redlock_acquire_stats astats;
    redlock__metrics metrics;        /* metrics.c; rendered by client/metrics.c */
    /* flights given back (their retry timers assigned): an operation's
     * start allocates nothing; trimmed like the operations (redlock__pool) */
    struct redlock__flight *free_fl;
    redlock__pool fl_pool;
    redlock__trimmer trim;           /* the pools' (redlock.c) */
};

static inline int64_t redlock__client_drift_us(const redlock_client *c, int64_t ttl_ms)
{
    return REDLOCK__MUTANT(NO_DRIFT) ? 0 : redlock__drift_us(ttl_ms, c->opt.drift_factor,
                                                             c->opt.drift_min_ms);
}

/* ---- contended.c: contended resources, back-off, when a waiter retries ------- */

typedef struct redlock__wake redlock__wake;
/* The lock (acquiring, l->fl set) waits on its resource / no longer. */
void redlock__wake_wait(redlock_lock *l);
void redlock__wake_unwait(redlock_lock *l);
/* An acquire attempt's outcome (stats, back-off); 1 when a split vote. */
int redlock__wake_outcome(redlock_lock *l, const redlock__op *op, int won);
/* The polling delay for a base delay, and the wake-up window. */
int64_t redlock__wake_poll_us(const redlock_lock *l, int64_t delay_us);
int64_t redlock__wake_window_us(const redlock_lock *l);
/* How long after a look that found the key gone the next one goes. */
int64_t redlock__wake_confirm_us(const redlock_lock *l);
/* 1: the lock's next poll looks first (one EXISTS: redlock__mutex_look). */
int redlock__wake_looks(const redlock_lock *l);
/* An acquire's first attempt deferred on a resource others contend for
 * (1: scheduled). */
int redlock__wake_defer(redlock_lock *l);
/* When a woken lock retries: at once (the one pick), else at random in
 * the window. */
int64_t redlock__wake_delay_us(redlock_lock *l);
/* A release was announced for the resource the lock waits on: its retry
 * moves into the wake window (once per wait). */
void redlock__lock_woken(redlock_lock *l);
void redlock__wake_free(redlock_client *c);

/* ---- announce.c: the registries of waiters, the release's announcement -- */

/* What a release of l tells the resource's registries, from one look-up
 * of the client's record: the wake window it announces ("<window us>" in
 * win, its length in *winlen, 0: none); which masters pick a waiter (n
 * bytes in picks: '0' none, '1' the one pick, which retries at once, '2' a
 * pick that retries at a random moment in the window) and *lead, the
 * master to write to first; *self, the client's waiter id (a C string)
 * when it is in the registries and none of its locks waits there, which
 * the release then takes away, else NULL.  Returns 0 when every master
 * picks ('2': this client saw no contention on the resource). */
int redlock__wake_release(redlock_lock *l, char *win, size_t winsize, size_t *winlen,
                          char *picks, size_t *lead, const char **self);
/* 1 when a release of l must tell the registries (the client knows of
 * waiters on its resource), else 0: the plain release. */
int redlock__wake_contended(const redlock_lock *l);
/* The client's id for its values (16 hex digits, no NUL), listening for
 * the waiters' notices from now on; NULL: no wake-up (out of memory). */
const char *redlock__wake_self(redlock_client *c);
/* 1 while the client's wake-up has something on its way that a loop
 * which runs only inside blocking calls would leave until the next one:
 * its holder's channel asked for and not yet confirmed on every master
 * that answers, a quorum at least (with `all`: on every master that is
 * up; the waiters' notices would reach no one meanwhile: a client's first
 * hold), or a late pick (a notice heard during a release) not yet answered.
 * Else 0: a client that listens already and whose lock nobody waits for
 * has nothing to wait for. */
int redlock__wake_settling(const redlock_client *c, int all);
/* How long after an acquire `all` applies (a few round trips). */
int64_t redlock__wake_grace_us(const redlock_client *c);
/* The wait for the holder's channel is over (confirmed, or given up at a
 * node timeout: a hung master is not waited for at every call). */
void redlock__wake_settled(redlock_client *c);
/* A master at random among those that answered the lock's latest fan-out
 * fast (within about twice the fastest's round trip), only those that
 * granted it when `granted`; SIZE_MAX when none did. */
size_t redlock__wake_fast_node(const redlock_lock *l, int granted);
/* A release decided: the registries' counts its masters answered. */
void redlock__wake_released(redlock_lock *l, const redlock__op *op);
/* A late vote of that release (another master picks if the picking one
 * failed after the decision). */
void redlock__wake_release_late(redlock_lock *l, const redlock__op *op);
/* redlock__net's side and message callbacks (privdata: the client). */
void redlock__wake_side(void *privdata, size_t node, int up);
void redlock__wake_message(void *privdata, size_t node, const char *channel, size_t len,
                           const char *payload, size_t plen);
/* An announcement's payload: 0, or -1 when it is not one. */
int redlock__wake_parse_payload(const char *p, size_t len, int64_t *window, double *rivals,
                                unsigned *rank, char *role);

/* Every public call on the client enters the gate of its loop (floor/thread.c). */
static inline int redlock__gate_enter(const redlock_client *c)
{
    return c && c->loop.th ? redlock__gate_take(&c->loop) : 0;
}
static inline void redlock__gate_leave(const redlock_client *c, int taken)
{
    if (taken)
        redlock__gate_give(&c->loop);
}

/* A public function's body inside the client's gate. */
#define REDLOCK__GATED(c, type, expr)                                         \
    do {                                                                      \
        int redlock__g_ = redlock__gate_enter(c);                             \
        type redlock__r_ = (expr);                                            \
        redlock__gate_leave((c), redlock__g_);                                \
        return redlock__r_;                                                   \
    } while (0)

/* xorshift64: only for retry jitter, never for lock values */
static inline uint64_t redlock__client_random(redlock_client *c)
{
    return redlock__random_jitter(&c->rnd);
}

/* ---- handle.c: lock handles -------------------------------------------- */

enum redlock__lock_op { REDLOCK__LOCK_IDLE, REDLOCK__LOCK_ACQUIRE, REDLOCK__LOCK_TRY,
                        REDLOCK__LOCK_EXTEND, REDLOCK__LOCK_RELEASE };

struct redlock_lock {
    redlock_client *c;               /* NULL once the client is freed */
    const redlock__family *fam;
    redlock__link link;              /* in the client's list */
    char *key;                       /* prefix + resource, K, inside "{K}"
                                      * (redlock__aux_key) */
    size_t keylen;
    char *value;
    size_t valuelen;
    int fixed_value;
    int64_t valid_until_us;          /* 0: not held */
    int64_t held_since_us;           /* start of the current hold's acquire */
    unsigned clock_steps;            /* the loop's clock_steps when granted */
    unsigned quorum;                 /* OK votes its operations need (a
                                      * semaphore's); 0: each kind's rule.
                                      * Beside clock_steps: no padding added */
    struct redlock__lock_nodes *nodes;  /* NULL until the first operation */
    size_t nodes_ok;
    /* the last operation's error text, allocated to its size by the first
     * error (a success empties it): most handles never have one */
    char *errstr;
    /* the operation in flight (fl: its state, NULL while none started) */
    enum redlock__lock_op busy;
    int freeing;
    int64_t ttl_ms;                  /* also the hold's, for the watchdog */
    struct redlock__flight *fl;
    /* fencing: the counter's key (NULL: no fencing), the token of the
     * current hold (0: none; the raise in flight is l->fl's) */
    char *fence_key;
    size_t fence_keylen;
    int64_t token;
    /* a decided release whose late replies still update the node results
     * (a reference held); dropped when another operation starts */
    redlock__op *late;
    /* watchdog and lost-lock notice (watchdog.c), allocated on first use */
    struct redlock__watch *wd;
    /* holds: acquires not yet undone by releases (re-entrant: any number;
     * other kinds: 1 while held); the operation in flight is an acquire
     * that adds a hold to a held lock (reacquire) or a release that takes
     * one away and keeps it (partial) */
    int64_t holds;
    unsigned reacquire : 1;
    unsigned partial : 1;
    unsigned hold_open : 1;          /* a hold not yet in the metrics */
    int64_t hold_until_us;           /* the validity's end as a release started */
    void *kd;                        /* the kind's own part (fam->free) */
};

/* Per node: the last operation's outcome, and the connection of the
 * winning write.  One allocation (the arrays follow the header), made by
 * the handle's first operation: a handle never used costs nothing here. */
typedef struct redlock__lock_nodes {
    size_t n;
    int64_t *rtt;                    /* -1: no reply */
    int64_t *ok_us;                  /* the start of the latest operation it
                                      * voted OK in (the key was there), or
                                      * of a re-grow sent to it; 0: none */
    char **detail;                   /* a node's text, NULL: none ("") */
    uint32_t *gen;                   /* connection of the winning SET */
    unsigned char *votes;
    char *rand;                      /* room for the random value (l->value
                                      * points here unless set_value gave one) */
    int texts;                       /* some detail[] is not NULL */
} redlock__lock_nodes;

/* The value's size: 128 random bits as 32 hex digits, after the first 12
 * hex digits of the client's id (REDLOCK__ID_HEX, 16) when the client wakes
 * waiters (the waiters' notices find the holder by them: announce.c).  44
 * in all: a master keeps a value of 44 bytes or less in one allocation
 * with its object (Redis's embedded strings), a longer one in two, which
 * cost a plain cycle about 8 % more there. */
#define REDLOCK__ID_HEX 16
#define REDLOCK__VALUE_ID_HEX 12
#define REDLOCK__RANDOM_HEX 32
#define REDLOCK__VALUE_HEX (REDLOCK__VALUE_ID_HEX + REDLOCK__RANDOM_HEX)

/* What only an operation in flight needs, taken when it starts and given
 * back as it completes (to the client's pool of them: redlock__lock_flight):
 * an idle or held handle carries a pointer. */
typedef struct redlock__flight {
    struct event retry_timer;        /* assigned once: kept in the pool */
    struct redlock__flight *next_free;  /* in the client's pool */
    redlock__op *op;
    redlock_cb *cb;
    void *privdata;
    int attempts_left;
    int attempts;                    /* started by this acquire */
    int64_t deadline_us;
    /* the deadline is the call's own (redlock_acquire_for): retry_count
     * does not count, and its passing ends the acquire with ETIMEDOUT */
    unsigned per_call : 1;
    int64_t wait_ms;                 /* ... its wait, for the message */
    /* fencing: the won acquire while counters are raised, and its token */
    redlock__op *fenced;
    int64_t pending_token;
    /* waiting for a resource held elsewhere (contended.c) */
    redlock_lock *lock;
    struct redlock__hot *hot;        /* the client's record of it, or NULL */
    redlock__link wait;              /* in hot->waiters while waiting */
    int64_t retry_at_us;             /* when the retry timer fires */
    unsigned waiting : 1;
    unsigned woken : 1;              /* an announcement moved the retry */
    unsigned missed : 1;             /* one came while an attempt was out */
    unsigned split_retry : 1;        /* the last attempt split: retried in the window */
    unsigned look : 1;               /* the next poll looks first (contended.c) */
    unsigned gone : 1;               /* the last look found the key gone:
                                      * the next one confirms it */
    unsigned rank : 2;               /* the pick's rank (redlock__wake_release) */
    unsigned armed : 1;              /* retry_timer was added (or activated) */
    unsigned later : 1;              /* an attempt of this acquire was sent: the
                                      * next one is a later attempt (a kind may
                                      * send another form: rwlock.c) */
    int64_t round_us;                /* the window the announcement gave, or 0 */
    /* metrics (metrics.c), from readings of the clock the operation took
     * anyway: its start (an acquire's first attempt, an extend's or a
     * release's op), the start of an acquire's first refused attempt when
     * it waited on, and a won acquire's decision (0: none) */
    int64_t began_us, wait_from_us, end_us;
} redlock__flight;

/* handle.c */
/* Make l->fl if not yet made: 0 or REDLOCK_ENOMEM (l->c is set). */
int redlock__lock_flight(redlock_lock *l);
/* Forget l->fl (its retry timer is not armed, or the client is gone). */
void redlock__lock_flight_end(redlock_lock *l);
/* Pooled flights a trim keeps at least (redlock__pool). */
#define REDLOCK__FLIGHT_POOL 32
/* Free the client's pooled flights: all, or what the last period's use
 * did not need (1 while more than REDLOCK__FLIGHT_POOL stay). */
void redlock__lock_flight_pool_free(redlock_client *c);
int redlock__lock_flight_pool_trim(redlock_client *c);
/* Make l->nodes if not yet made: 0 or REDLOCK_ENOMEM (l->c is set). */
int redlock__lock_nodes_make(redlock_lock *l);
/* 1 when master i may have lost the held lock's key through no one's
 * command: it restarted (or failed over) since the hold began, since it
 * last voted OK for it and since a re-grow was last sent to it.
 * Elsewhere a key gone was taken away. */
static inline int redlock__lock_regrows(const redlock_lock *l, size_t i)
{
    int64_t since = l->held_since_us;

    if (l->nodes && l->nodes->ok_us[i] > since)
        since = l->nodes->ok_us[i];
    if (REDLOCK__MUTANT(REGROW_ALWAYS))
        return 1;
    return redlock__vote_renewed_since(&l->c->fleet.masters[i], since);
}
/* The node's text of the last operation, "" for none. */
static inline const char *redlock__lock_detail(const redlock_lock *l, size_t node)
{
    return l->nodes && l->nodes->detail[node] ? l->nodes->detail[node] : "";
}
#define REDLOCK__LOCK_ERRSTR 512       /* most error texts fit (formatted on the
                                        * stack); a longer one is allocated to size */
__attribute__((format(printf, 2, 3)))
void redlock__lock_err(redlock_lock *l, const char *fmt, ...);
/* A lock constructor refuses its arguments: the message goes to the
 * client's errstr (c may be NULL); returns REDLOCK_EINVAL. */
__attribute__((format(printf, 2, 3)))
int redlock__lock_refuse(redlock_client *c, const char *fmt, ...);
/* Why the key prefix + resource cannot be served (it starts with '{' or
 * contains '}': the library's own keys' names), or NULL: it can be. */
const char *redlock__key_reserved(const redlock_client *c, const void *resource, size_t len);
/* The library's own key `suffix` of lock l, "{K}" + suffix with K its key
 * (docs/kinds.md, "Keys on the masters"), written to out unless NULL; its length.  The
 * braces are l->key[-1] and l->key[l->keylen]. */
size_t redlock__aux_key(const redlock_lock *l, const char *suffix, char *out);
/* "{K}" itself (l->keylen + 2 bytes, in place): the stem of every library
 * key of the lock, the name of its record of waiters (contended.c). */
static inline const char *redlock__lock_braced(const redlock_lock *l)
{
    return l->key - 1;
}
/* The masters l's operations need (l->c set): its own quorum (a
 * semaphore's), else a majority.  Every count of a lock's masters is
 * against it, never against N/2+1 (a semaphore's is larger). */
size_t redlock__lock_quorum(const redlock_lock *l);
/* A new handle of family `fam` on `resource` (the kinds' constructors,
 * inside the gate); the kind then fills in l->kd.  0 or a REDLOCK_E*. */
int redlock__lock_create(redlock_lock **out, redlock_client *c, const void *resource,
                         size_t len, const redlock__family *fam);
/* An op of `kind` on lock l with these keys and arguments (nkeys +
 * nargs items), and the lock's drift for ttl_ms; NULL: out of memory. */
redlock__op *redlock__lock_new_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                                  size_t nkeys, size_t nargs, const char *const *item,
                                  const size_t *len);
/* A lock value's random digits, from the client's buffer (floor/random.c) */
static inline int redlock__client_random_hex(redlock_client *c, char *out, size_t bytes)
{
    return redlock__random_value_hex(&c->rnd, out, bytes);
}
/* 1 when the lock's acquire in flight is at its first attempt. */
static inline int redlock__lock_first_attempt(const redlock_lock *l)
{
    return l->fl->attempts == 0;
}
/* 1 when no attempt follows the one starting (a try, the last retry). */
static inline int redlock__lock_last_attempt(const redlock_lock *l)
{
    return l->busy != REDLOCK__LOCK_ACQUIRE || (!l->fl->per_call && l->fl->attempts_left <= 0);
}
/* lock/operation.c */
void redlock__lock_cancel(redlock_lock *l);
/* redlock_acquire_cancel's work (inside the gate): 0, or why not. */
int redlock__lock_acquire_cancel(redlock_lock *l);
/* Finish the lock's operation: the user callback runs last, and the lock
 * is not touched after it (it may be freed inside). */
void redlock__lock_complete(redlock_lock *l, int status);
/* The lock's message for a failed op: what the nodes said. */
void redlock__lock_describe(redlock_lock *l, const redlock__op *op, int code);
/* An op of `kind` of the lock's family on its key and value (`token`:
 * fencing's raise); NULL: out of memory. */
redlock__op *redlock__lock_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                              int64_t token);
/* Keep the per-node outcome of the lock's latest fan-out. */
void redlock__lock_record(redlock_lock *l, const redlock__op *op);
/* After an op's decision: finish the lock's operation if it was cancelled
 * or won (the validity counts from the op's start); 1 when finished (the
 * lock may be gone then). */
int redlock__lock_settle(redlock_lock *l, redlock__op *op);
/* acquire.c */
void redlock__lock_retry_cb(evutil_socket_t fd, short what, void *arg);
/* One acquire attempt (the lock is set up); an error only when nothing was
 * started. */
int redlock__lock_attempt(redlock_lock *l);
/* operation.c: start an extend of `kind` or the release on the lock's value. */
/* redlock_extend_async's checks and start, for callers inside the gate
 * (the watchdog's extends: api.c) */
int redlock__lock_extend(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd);
int redlock__lock_start_extend(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                               redlock_cb *cb, void *pd);
int redlock__lock_start_release(redlock_lock *l, redlock_cb *cb, void *pd);
/* A lock's watchdog and lost-lock notice (watchdog.c). */
typedef struct redlock__watch {
    int64_t every_ms;                /* -1: no watchdog; 0: ttl/3 */
    int64_t max_hold_ms;             /* 0: no cap */
    int in_flight;                   /* the lock's extend in flight is the watchdog's */
    int watching;                    /* held, with a watchdog or a notice */
    int lost_reason;                 /* what the expiry timer will say, or 0 */
    int lost_fired;                  /* the notice ran for this hold */
    struct event tick;               /* the next extend */
    struct event expiry;             /* the end of the validity */
    redlock_lost_cb *lost_cb;
    void *lost_privdata;
} redlock__watch;

/* 1 when the lost-lock notice ran for the current hold. */
static inline int redlock__watch_told_lost(const redlock_lock *l)
{
    return l->wd && l->wd->lost_fired;
}
/* 1 when the lock's operation in flight is the watchdog's extend. */
static inline int redlock__watch_in_flight(const redlock_lock *l)
{
    return l->wd && l->wd->in_flight;
}
/* Forget the watchdog (redlock_lock_free). */
void redlock__watch_free(redlock_lock *l);

/* Forget the lock's operation in flight without a callback: its outcome is
 * ignored (an acquire attempt's win is undone). */
void redlock__lock_detach_op(redlock_lock *l);
/* Late replies of the last release no longer update the node results. */
void redlock__lock_drop_late(redlock_lock *l);
/* watchdog.c: the lock was granted (new_hold) or extended. */
void redlock__watch_held_(redlock_lock *l, int new_hold);
/* The validity's end moved (an extend started, or refusals ended it). */
void redlock__watch_end_moved_(redlock_lock *l);
/* No more extends or notice for this hold (released, freed, re-acquired). */
void redlock__watch_stop_(redlock_lock *l);
/* (inline: a lock without a watchdog or a notice pays a test) */
static inline void redlock__watch_held(redlock_lock *l, int new_hold)
{
    if (l->wd)
        redlock__watch_held_(l, new_hold);
}
static inline void redlock__watch_end_moved(redlock_lock *l)
{
    if (l->wd)
        redlock__watch_end_moved_(l);
}
static inline void redlock__watch_stop(redlock_lock *l)
{
    if (l->wd)
        redlock__watch_stop_(l);
}
/* net->clock_ahead (privdata: the client): locks that counted on master
 * `node` may be lost (watchdog.c). */
void redlock__locks_clock_ahead(void *privdata, size_t node);
/* Detach the watchdog's extend in flight. */
void redlock__watch_detach(redlock_lock *l);
/* The client is going away: every lock is detached, its operation
 * cancelled (the callbacks hear ECANCELED). */
void redlock__locks_detach(redlock_client *c);
/* Acquire attempts not yet delivered may win keys: undo them. */
void redlock__locks_undo_live(redlock_client *c);

#endif /* REDLOCK_LOCK_PRIVATE_H */
