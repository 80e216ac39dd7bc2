/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* floor.h -- the floor every layer of the library stands on: lists,
 * pools, buffers and RESP (resp.c, resp.h), addresses (addr.c), the loop's
 * bracket, clock, timers, thread and gate (loop.c, thread.c), random bytes
 * (random.c), error strings (errors.c), the scripts' numbers and SHA-1
 * (digest.c); with the root's pure logic, clock.h and quorum.h.  Never
 * installed.
 *
 * Layers, top to bottom, a folder each with one header that includes the
 * one below it; calls go down, results come back up through callbacks
 * (docs/design.md, "The house"; `make check-layers` holds it):
 *
 *   redlock.c   the client                         (redlock.h: the API)
 *   client/     clock probe, blocking calls, counters    client.h
 *   kinds/      re-entrant, read/write, multi            kinds.h
 *   lock/       the lock machine, watchdog, wake-up      lock.h
 *   fanout/     one operation over every master          fanout.h
 *   master/     one master and its guards                master.h
 *   conn/       one connection                           conn.h
 *   floor/      this                                     floor.h
 *   quorum.c clock.c   pure decision rules and time math (quorum.h, clock.h)
 */
#ifndef REDLOCK_FLOOR_H
#define REDLOCK_FLOOR_H

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
#include "clock.h"
#include "quorum.h"
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

/* ---- pools of reusable objects (fanout.c's operations, handle.c's flights) */

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
