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
#include "floor/loop.h"
#include "floor/mutant.h"

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
    int cluster;       /* redis-cluster:// (a vote that is a Redis Cluster) */
    /* a cluster's seeds after the first (host, port): "h:p,h:p", or NULL */
    char *seeds;
} redlock__addr;

int redlock__addr_parse(redlock__addr *a, const char *s, char *err, size_t errlen);
void redlock__addr_free(redlock__addr *a);
/* *a = b's credentials and TLS, at host:port (a cluster's node). */
int redlock__addr_at(redlock__addr *a, const redlock__addr *b, const char *host, int port);
/* Seed i >= 1 of a cluster address (i = 0 is its host:port) into host
 * (REDLOCK__HOST_MAX + 1 bytes) and *port: 0, or -1 past the last. */
int redlock__addr_seed(const redlock__addr *a, size_t i, char *host, int *port);

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
    /* kinds/rwlock.c, kinds/rwread.c: phase-fair turns (the writer's release, a waiting reader) */
    REDLOCK__SCRIPT_RW_WRITE_RELEASE, REDLOCK__SCRIPT_RW_READ_WAIT,
    /* kinds/multi.c */
    REDLOCK__SCRIPT_MULTI_ACQUIRE, REDLOCK__SCRIPT_MULTI_EXTEND, REDLOCK__SCRIPT_MULTI_RELEASE,
    /* kinds/semaphore.c */
    REDLOCK__SCRIPT_SEM_ACQUIRE, REDLOCK__SCRIPT_SEM_EXTEND, REDLOCK__SCRIPT_SEM_RELEASE,
    REDLOCK__SCRIPT_SEM_FENCE_RAISE,
    /* client/inspect.c: what a resource's keys hold, read only */
    REDLOCK__SCRIPT_INSPECT,
    /* kinds/reentrant.c, kinds/multi.c, kinds/semaphore.c: their releases that
     * pick a waiter */
    REDLOCK__SCRIPT_RE_RELEASE_WQ, REDLOCK__SCRIPT_MULTI_RELEASE_WQ, REDLOCK__SCRIPT_SEM_RELEASE_WQ,
    /* kinds/rwlock.c: a writer that gives up takes its mark away (acquire cancel) */
    REDLOCK__SCRIPT_RW_ABANDON,
    /* kinds/rwlock.c, kinds/rwread.c: their releases that wake waiters */
    REDLOCK__SCRIPT_RW_WRITE_RELEASE_WQ, REDLOCK__SCRIPT_RW_READ_RELEASE_WQ,
    /* kinds/rwread.c: a reader that gives up takes its records away (acquire cancel) */
    REDLOCK__SCRIPT_RW_READ_ABANDON,
    REDLOCK__NSCRIPTS
};

void redlock__sha1_hex(const void *data, size_t len, char out[41]);

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
