/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* floor.h -- the floor every layer of the library stands on: lists,
 * addresses (addr.c), the scripts' numbers and their SHA-1 (digest.c),
 * RESP encoding (resp.c; its reader is resp.h's), pools, the loop
 * (loop.c), its own thread and gate (thread.c), random bytes (random.c);
 * the vote rules and the clock are quorum.c's and clock.c's, under the
 * floor.  Never installed.  Each folder above has one header, which
 * includes the one below it: conn/conn.h, master/master.h,
 * fanout/fanout.h, lock/lock.h, kinds/kinds.h, client/client.h.
 *
 * The house, top to bottom; calls go down, results come back up through
 * callbacks (docs/design.md, "The house"; `make check-layers` checks it):
 *
 *   redlock.c   the client: options, masters, the list of every script
 *   client/     the masters' clocks (probe.c), blocking calls, counters
 *   kinds/      the re-entrant, read/write and multi-resource locks
 *   lock/       lock handles and their machine, the mutex, the wake-up
 *   fanout/     one operation over every master, quorum.c decides
 *   master/     one master: its connections, undos, guards
 *   conn/       one connection: handshake, queue of callbacks, TLS
 *   floor/      RESP, addresses, the loop and its thread, random bytes,
 *               error strings (errors.c), SHA-1
 *   quorum.c clock.c   pure rules: votes and tallies; time, drift, validity
 */
#ifndef REDLOCK_PRIVATE_H
#define REDLOCK_PRIVATE_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <event2/event.h>
/* ops and nodes embed their timers: no allocation per timer */
#include <event2/event_struct.h>
#include "redlock.h"
#include "floor/resp.h"

struct bufferevent;

/* Compatibility: the sizes of the public structs as 0.1.0 laid them out
 * (programs built against that header call the unsuffixed functions). */
#define REDLOCK__OPTIONS_V0_SIZE offsetof(redlock_options, clock_probe_ms)
#define REDLOCK__STATS_V0_SIZE offsetof(redlock_node_stats, fulls)
#define REDLOCK__RESULT_V0_SIZE sizeof(redlock_node_result)

/* ---- a doubly linked list (intrusive, with a sentinel) ----------------- */

typedef struct redlock__link {
    struct redlock__link *next, *prev;
} redlock__link;

static inline void redlock__list_init(redlock__link *head)
{
    head->next = head->prev = head;
}

static inline void redlock__list_add(redlock__link *head, redlock__link *e)
{
    e->next = head->next;
    e->prev = head;
    head->next->prev = e;
    head->next = e;
}

static inline void redlock__list_del(redlock__link *e)
{
    if (e->next) {
        e->next->prev = e->prev;
        e->prev->next = e->next;
    }
    e->next = e->prev = NULL;
}

static inline int redlock__list_empty(const redlock__link *head)
{
    return head->next == head;
}

#define redlock__container(ptr, type, member) \
    ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* ---- quorum.c: pure vote counting and decision rules ------------------- */

/* One node's vote in one operation (the same numbers as REDLOCK_VOTE_*). */
enum redlock__vote {
    REDLOCK__PENDING = 0,
    REDLOCK__OK,        /* did what was asked (SET, deleted, extended)     */
    REDLOCK__REFUSED,   /* held by someone else / not our value            */
    REDLOCK__TIMEOUT,   /* no reply within the node timeout                */
    REDLOCK__DOWN,      /* not connected, or the connection was lost       */
    REDLOCK__ERROR,     /* the server answered an error                    */
    REDLOCK__FULL,      /* not sent: the node's queue held max_pending     */
    REDLOCK__UNCOUNTED, /* OK, but a guard keeps the node out (guard.c)   */
    REDLOCK__NVOTES
};

enum redlock__decision {
    REDLOCK__UNDECIDED = 0,
    REDLOCK__WON,
    REDLOCK__LOST
};

/* How an operation is decided.  `need` OK votes win it: */
enum redlock__rule_kind {
    REDLOCK__RULE_MAJORITY,  /* n/2 + 1, decided the moment it is known */
    REDLOCK__RULE_COUNT,     /* `count` of n (a semaphore's quorum)      */
    REDLOCK__RULE_ALL,       /* every node                               */
    REDLOCK__RULE_ANY,       /* one node                                 */
    REDLOCK__RULE_WAIT_ALL   /* a majority, but decided only when every
                              * node answered (or timed out)             */
};

typedef struct redlock__rule {
    enum redlock__rule_kind kind;
    unsigned count;          /* REDLOCK__RULE_COUNT only */
} redlock__rule;

typedef struct redlock__tally {
    unsigned n;                        /* nodes */
    unsigned quorum;                   /* OK votes that win */
    unsigned wait_all;                 /* decide only when none is pending */
    unsigned count[REDLOCK__NVOTES];   /* votes by kind, PENDING included */
} redlock__tally;

/* A win needs at least this much validity left (so that a success never
 * reads 0 ms of validity). */
#define REDLOCK__MIN_VALIDITY_US 1000
/* ... plus this when the result is handed over, so that the callback's own
 * reading, a moment later, still finds >= 1 ms. */
#define REDLOCK__HANDOVER_US 200

/* 0, or REDLOCK_EINVAL when the rule cannot be met by n nodes. */
int redlock__tally_init(redlock__tally *t, unsigned n, redlock__rule rule);
/* Move one vote from `from` to `to` (inline: it runs for every vote). */
static inline void redlock__tally_set(redlock__tally *t, enum redlock__vote from,
                                      enum redlock__vote to)
{
    if (from == to || t->count[from] == 0)
        return;
    t->count[from]--;
    t->count[to]++;
}
/* The outcome so far (inline: asked after every vote). */
static inline enum redlock__decision redlock__decide(const redlock__tally *t,
                                                     int64_t validity_us)
{
    unsigned ok = t->count[REDLOCK__OK];
    unsigned pending = t->count[REDLOCK__PENDING];

    if (validity_us < REDLOCK__MIN_VALIDITY_US)
        return REDLOCK__LOST;
    if (t->wait_all && pending > 0)
        return REDLOCK__UNDECIDED;
    if (ok >= t->quorum)
        return REDLOCK__WON;
    if (ok + pending < t->quorum)
        return REDLOCK__LOST;
    return REDLOCK__UNDECIDED;
}
int redlock__failure_code(const redlock__tally *t);
/* 1 when refusals alone leave fewer than a quorum of nodes that may still
 * hold the value: the lock is certainly lost. */
int redlock__refused_quorum(const redlock__tally *t);
/* "The maximum of a quorum's values": 1 and *out = the largest value among
 * the nodes that voted OK, when at least `quorum` did; else 0. */
int redlock__max_of_ok(const unsigned char *votes, const int64_t *values, size_t n,
                       unsigned quorum, int64_t *out);
/* Fencing.  The OK votes of a fenced acquire carry each master's counter,
 * just incremented; the token is their maximum.  A later holder's quorum
 * meets this one's in at least one master, so it reads at least the token
 * there, if a quorum's counters hold it.  1: they do already (a quorum
 * returned the maximum); 0: fewer did, the counters must be raised to the
 * token on a quorum before the token may be handed out; -1: no quorum
 * voted OK.  A counter below REDLOCK__FENCE_FLOOR was never used or was
 * lost (a master restarted without persistence, where a majority may have
 * lost theirs): then the token is at least wall_us (the wall clock in
 * microseconds, far above the floor), and the counters are raised. */
#define REDLOCK__FENCE_FLOOR ((int64_t)1 << 40)
int redlock__fence_token(const unsigned char *votes, const int64_t *values, size_t n,
                         unsigned quorum, int64_t wall_us, int64_t *token);
/* The wall clock (CLOCK_REALTIME) in microseconds: only for fencing's
 * floor, never for validity. */
int64_t redlock__wall_us(void);

/* ---- clock.c: time, drift, validity ------------------------------------ */

/* The default clock (why BOOTTIME: clock.c), in microseconds.  Inline:
 * it is read for every reply. */
static inline int64_t redlock__clock_read(void)
{
    struct timespec ts;
#ifdef CLOCK_BOOTTIME
    if (clock_gettime(CLOCK_BOOTTIME, &ts) == 0)
        return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
#endif
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
/* redlock__clock_read as a redlock_clock_fn */
int64_t redlock__clock_default(void *privdata);
/* The clock drift allowed over ttl_ms (inline: every acquire and extend).
 * ttl is at most 2^40 ms (checked by callers), so nothing here overflows. */
static inline int64_t redlock__drift_us(int64_t ttl_ms, double factor, int64_t min_ms)
{
    return (int64_t)((double)ttl_ms * 1000.0 * factor) + min_ms * 1000;
}
/* What is left of ttl_ms at now_us for an operation started at start_us
 * (inline: asked after every vote of an acquire or extend). */
static inline int64_t redlock__validity_us(int64_t start_us, int64_t now_us, int64_t ttl_ms,
                                           int64_t drift_us)
{
    int64_t elapsed = now_us - start_us;
    if (elapsed < 0)        /* a clock that went backwards: trust nothing */
        return 0;
    return ttl_ms * 1000 - elapsed - drift_us;
}
int64_t redlock__ms_floor(int64_t us);
/* a + b without overflow (clamped to INT64_MAX); both >= 0 */
int64_t redlock__add_sat(int64_t a, int64_t b);
/* us (>= 0; negative counts as 0) as a timeval */
struct timeval redlock__tv(int64_t us);
/* A round-trip estimate `est` after one more sample (both > 0; a sample
 * <= 0 leaves it): see clock.c */
int64_t redlock__rtt_update(int64_t est, int64_t sample_us);

/* ---- addr.c: node address parsing -------------------------------------- */

#define REDLOCK__UNIX_PATH_MAX 107   /* sockaddr_un's sun_path, less the NUL */
#define REDLOCK__HOST_MAX 255        /* longest DNS name */

typedef struct redlock__addr {
    char *host;        /* NULL for unix sockets */
    int port;
    char *path;        /* unix socket path, else NULL */
    char *user;        /* ACL user or NULL */
    char *password;    /* or NULL; wiped on free */
    int db;            /* -1: no SELECT */
    int tls;           /* rediss:// */
} redlock__addr;

int redlock__addr_parse(redlock__addr *a, const char *s, char *err, size_t errlen);
void redlock__addr_free(redlock__addr *a);

/* ---- the scripts' numbers, and digest.c: their SHA-1 ------------------ */

/* Every script a master runs, by number: the client lists their bodies
 * (redlock.c; redlock__net.scripts), the masters load them all at each
 * handshake, an operation sends one by its SHA-1 (EVALSHA). */
enum {
    /* lock/scripts.c: the mutex (and the write lock's extend, release and raise) */
    REDLOCK__SCRIPT_RELEASE, REDLOCK__SCRIPT_EXTEND, REDLOCK__SCRIPT_REGROW,
    REDLOCK__SCRIPT_FENCE_RAISE,
    /* lock/scripts.c, for announce.c: a waiter's entry in the resource's registry (and its
     * notice to the holder); the release that picks a waiter; a late pick */
    REDLOCK__SCRIPT_WAIT, REDLOCK__SCRIPT_RELEASE_WQ, REDLOCK__SCRIPT_TELL,
    /* kinds/reentrant.c */
    REDLOCK__SCRIPT_RE_ACQUIRE, REDLOCK__SCRIPT_RE_EXTEND, REDLOCK__SCRIPT_RE_RELEASE,
    REDLOCK__SCRIPT_RE_FENCE_RAISE,
    /* kinds/rwlock.c, kinds/rwread.c */
    REDLOCK__SCRIPT_RW_READ_EXTEND, REDLOCK__SCRIPT_RW_READ_RELEASE, REDLOCK__SCRIPT_RW_WRITE,
    /* kinds/multi.c */
    REDLOCK__SCRIPT_MULTI_ACQUIRE, REDLOCK__SCRIPT_MULTI_EXTEND, REDLOCK__SCRIPT_MULTI_RELEASE,
    REDLOCK__NSCRIPTS
};

void redlock__sha1_hex(const void *data, size_t len, char out[41]);

/* ---- resp.c: RESP encoding (the reader is in resp.h) ------------------- */

/* A growable byte buffer for encoded commands. */
typedef struct redlock__buf {
    char *p;
    size_t len, cap;
} redlock__buf;

/* Room for `extra` more bytes: 0, or ENOMEM (b unchanged). */
int redlock__buf_grow(redlock__buf *b, size_t extra);
static inline int redlock__buf_reserve(redlock__buf *b, size_t extra)
{
    return extra <= b->cap - b->len ? 0 : redlock__buf_grow(b, extra);
}
/* Decimal digits of v (at most 20, no terminator); returns how many. */
size_t redlock__u64_str(char *out, uint64_t v);
void redlock__buf_free(redlock__buf *b);
/* Append one RESP command of argc arguments. 0 or REDLOCK_ENOMEM. */
int redlock__resp_command(redlock__buf *b, int argc, const char *const *argv,
                          const size_t *argvlen);

/* ---- pools of reusable objects (fanout.c's operations, lock.c's flights) */

/* A pool's counts: objects in use (alive), their high-water mark since the
 * last trim (hw), and those waiting in the pool (nfree).  Objects go back
 * to the pool whatever their number (a steady load never frees what it
 * allocates again a moment later); every REDLOCK__POOL_TRIM_MS while the
 * pool holds more than its minimum, a trim frees what the last period's
 * peak did not use (redlock__pool_surplus): after a burst the memory goes
 * within two periods, busy or idle. */
typedef struct redlock__pool {
    size_t alive, hw, nfree;
} redlock__pool;

#define REDLOCK__POOL_TRIM_MS 10000

static inline void redlock__pool_took(redlock__pool *p)
{
    if (++p->alive > p->hw)
        p->hw = p->alive;
}

/* How many pooled objects a trim frees: those beyond max(min, hw) in all;
 * the next period's peak starts from the use now. */
static inline size_t redlock__pool_surplus(redlock__pool *p, size_t min)
{
    size_t keep = p->hw > min ? p->hw : min, total = p->alive + p->nfree;
    size_t n = total > keep ? total - keep : 0;

    p->hw = p->alive;
    return n < p->nfree ? n : p->nfree;
}

/* The client's timer that trims its pools (redlock.c), armed once a pool
 * holds more than its minimum. */
typedef struct redlock__trimmer {
    struct event ev;
    int armed;
} redlock__trimmer;

/* ---- loop.c: the loop bracket, the client's clock, timers -------------- */

typedef struct redlock__loop {
    struct event_base *base;
    unsigned depth;                  /* library frames on the stack */
    int closing;                     /* the owner is being freed */
    redlock_clock_fn *clock;
    void *clock_privdata;
    int64_t last_raw;                /* the clock's latest reading */
    int64_t clock_offset;            /* added to it: the steps back so far */
    int64_t fixed_us;                /* when libevent's cached time was refreshed */
    unsigned clock_steps;            /* times the clock was seen going back */
    void (*destroy)(void *owner);    /* run by the last leave once closing */
    void *owner;
    struct redlock__thread *th;      /* the loop's own thread (thread.c), or NULL */
} redlock__loop;

/* Every libevent callback into the library brackets its work with these,
 * so that a client freed from a user callback is destroyed only when the
 * stack has unwound.  leave() returns 1 when the owner is gone. */
void redlock__enter(redlock__loop *l);
int redlock__leave(redlock__loop *l);
/* The clock; a reading below the previous one counts in clock_steps.
 * Inline: it is read for every reply. */
int64_t redlock__now_step(redlock__loop *l, int64_t raw);
static inline int64_t redlock__now(redlock__loop *l)
{
    /* the default clock without the indirect call */
    int64_t raw = l->clock == redlock__clock_default ? redlock__clock_read()
                                                      : l->clock(l->clock_privdata);
    if (raw < l->last_raw)
        return redlock__now_step(l, raw);
    l->last_raw = raw;
    return raw + l->clock_offset;
}
/* Arm a timer `us` from now, "now" being the real time, not the loop's
 * cached time (stale after a long callback). */
void redlock__timer_add(redlock__loop *l, struct event *ev, int64_t us);
/* Make libevent's cached loop time current (to within 1 ms); `now` is a
 * reading of redlock__now() just taken. */
void redlock__fresh_loop_time(redlock__loop *l, int64_t now);
/* Arm the trimmer unless it is (NULL: none). */
static inline void redlock__trim_soon(redlock__trimmer *t, redlock__loop *l)
{
    if (t && !t->armed && !l->closing) {
        t->armed = 1;
        redlock__timer_add(l, &t->ev, REDLOCK__POOL_TRIM_MS * 1000);
    }
}

/* ---- random.c: random bytes ------------------------------------------- */

/* A client's random bytes: `buf` holds values drawn by one getrandom(2) for
 * many, in a page a fork(2) child gets wiped (MADV_WIPEONFORK: never the
 * parent's values; NULL: one getrandom per value); `jitter` is the xorshift
 * state of the retry delays. */
typedef struct redlock__random {
    unsigned char *buf;
    size_t pos;
    uint64_t jitter;
} redlock__random;
void redlock__random_init(redlock__random *r, uint64_t fallback_seed);
void redlock__random_free(redlock__random *r);
/* 2*bytes hex digits and a NUL into out (bytes <= 64): 0 or REDLOCK_ESYSTEM. */
int redlock__random_hex(char *out, size_t bytes);
/* The same from the buffer (bytes <= 16). */
int redlock__random_value_hex(redlock__random *r, char *out, size_t bytes);
/* xorshift64: only for jitter, never for lock values */
uint64_t redlock__random_jitter(redlock__random *r);

/* ---- thread.c: a loop on a thread of its own, and its gate -------------- */

typedef struct redlock__thread redlock__thread;
/* Start the loop's thread (options.loop_thread); 0 or an error with err. */
int redlock__thread_start(redlock__loop *lp, char *err, size_t errlen);
/* Stop and join it (taken: the caller is inside the gate); then alone. */
void redlock__thread_stop(redlock__loop *lp, int taken);
/* The gate: whoever touches a loop that has a thread holds it (1: taken,
 * pass it to give; 0: not needed: this thread holds the gate already: the
 * loop's thread, or inside a call on it). */
int redlock__gate_take(const redlock__loop *lp);
void redlock__gate_give(const redlock__loop *lp);
/* Inside the gate: let the loop run until *done (set by
 * redlock__gate_done from a callback) or timeout_ms (-1: none); returns
 * *done.  Inside the gate again after it. */
int redlock__gate_wait(redlock__loop *lp, int *done, int64_t timeout_ms);
void redlock__gate_done(redlock__loop *lp, int *done);

#endif /* REDLOCK_PRIVATE_H */
